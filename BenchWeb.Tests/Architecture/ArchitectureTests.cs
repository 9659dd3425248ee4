using System.Reflection;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Architecture;

/// <summary>The web app's folders as its compiled code has them (<see cref="NamespaceGraph"/>): no folder reaches one that
/// reaches it back, and the bottom layers reach no feature.</summary>
[UnitTest]
public sealed class ArchitectureTests
{
    private static readonly Assembly Web = typeof(BenchDbContext).Assembly;

    private static readonly Lazy<Dictionary<string, HashSet<string>>> Graph = new(() => NamespaceGraph.Of(Web, "BenchWeb"));

    [Fact]
    public void TheGraph_SeesReferencesInMethodBodies()
    {
        // Guards the tests below against an empty graph: a feature reaches the data layer, and the live feed's page is
        // known to follow it only through a method body (a call), which the graph must see.
        Assert.Contains("Data", Graph.Value["History"]);
        Assert.Contains("Live", Graph.Value["Components"]);
        Assert.True(Graph.Value.Count >= 15, $"Only {Graph.Value.Count} folders found.");
    }

    [Fact]
    public void TheEngine_ReachesNoPartOfTheWebApp()
    {
        var references = typeof(BenchEngine.Running.RunPlan).Assembly.GetReferencedAssemblies().Select(a => a.Name ?? "").ToList();

        Assert.DoesNotContain(references, r => r.StartsWith("BenchWeb", StringComparison.Ordinal));
        Assert.DoesNotContain(references, r => r.StartsWith("Microsoft.AspNetCore", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("Data")]
    [InlineData("Configuration", "Data")]
    [InlineData("Hubs", "Data")]
    [InlineData("Guard", "Configuration", "Data")]
    [InlineData("Live", "Configuration", "Data", "Hubs")]
    public void ABottomLayer_ReachesNoFeature(string folder, params string[] allowed)
    {
        var reached = Graph.Value.GetValueOrDefault(folder) ?? [];

        Assert.True(reached.All(allowed.Contains), $"{folder} reaches {string.Join(", ", reached.Except(allowed).Order(StringComparer.Ordinal))}; it may reach only {(allowed.Length == 0 ? "nothing" : string.Join(", ", allowed))}.");
    }

    [Fact]
    public void OnlyTheEntryPoint_ReachesTheCompositionRoot()
    {
        // Hosting wires every feature together; a feature that reached it would reach every other one through it.
        var reaching = Graph.Value.Where(f => f.Key != "(root)" && f.Value.Contains("Hosting")).Select(f => f.Key).Order(StringComparer.Ordinal).ToList();

        Assert.True(reaching.Count == 0, $"{string.Join(", ", reaching)} reach(es) Hosting, the composition root; only Program may.");
        // The check sees the composition root at all: it is a folder of the graph, and it reaches the features it wires.
        Assert.Contains("Guard", Graph.Value["Hosting"]);
    }

    [Fact]
    public void NoFolderReachesOneThatReachesItBack()
    {
        var loops = NamespaceGraph.Loops(Graph.Value);

        Assert.True(loops.Count == 0, $"Folders that reach each other: {Describe(loops)}");
        // The check finds a loop when there is one: the same graph with one edge back from the data layer has one.
        var looped = Graph.Value.ToDictionary(f => f.Key, f => new HashSet<string>(f.Value, StringComparer.Ordinal), StringComparer.Ordinal);
        looped["Data"].Add("History");
        Assert.Contains(NamespaceGraph.Loops(looped), l => l.Contains("Data") && l.Contains("History"));
    }

    [Fact]
    public void NoRazorComponent_OpensTheDatabase()
    {
        // Pages ask a read side (RunReader, ProfileReader, SweepReader) or a service; injecting the context factory is how one would open it.
        var opening = Web.GetTypes()
            .Where(t => typeof(Microsoft.AspNetCore.Components.IComponent).IsAssignableFrom(t))
            .Where(t => t.GetProperties(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
                .Any(p => p.PropertyType == typeof(IDbContextFactory<BenchDbContext>) || p.PropertyType == typeof(BenchDbContext)))
            .Select(t => t.FullName)
            .ToList();

        Assert.Empty(opening);
        // The check sees injected services at all: the run page injects its read side.
        Assert.Contains(typeof(BenchWeb.Components.Pages.Runs.RunLive).GetProperties(BindingFlags.Instance | BindingFlags.NonPublic), p => p.PropertyType == typeof(BenchWeb.History.RunReader));
    }

    [Fact]
    public void NoApiEndpoint_OpensTheDatabase()
    {
        // The HTTP API asks the read sides (RunReader, ProfileReader, SweepReader) or a service, as the pages do; an endpoint
        // taking the context factory would read on its own. Lambdas' bodies are methods of nested types, checked too.
        var opening = Web.GetTypes()
            .Where(t => t.Namespace == "BenchWeb.Apis")
            .SelectMany(t => t.GetMethods(BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                .Where(m => m.GetParameters().Any(p => p.ParameterType == typeof(IDbContextFactory<BenchDbContext>) || p.ParameterType == typeof(BenchDbContext)))
                .Select(m => $"{t.FullName}.{m.Name}"))
            .ToList();

        Assert.Empty(opening);
        // The check sees endpoints' parameters at all: the runs list takes its read side.
        Assert.Contains(typeof(BenchWeb.Apis.RunsApi).GetMethods(BindingFlags.Static | BindingFlags.NonPublic), m => m.GetParameters().Any(p => p.ParameterType == typeof(BenchWeb.History.RunReader)));
    }

    [Fact]
    public void TheHub_ReadsSecondsThroughTheRunsReadSide()
    {
        // The hub for external clients reads the seconds a viewer joins with, or missed, as the pages do: through the read
        // side's delegate (SavedSecondsReader, RunReader.SecondsAsync), never with a context of its own.
        var taken = typeof(BenchWeb.Hubs.RunsHub).GetConstructors().SelectMany(c => c.GetParameters()).Select(p => p.ParameterType).ToList();

        Assert.DoesNotContain(typeof(IDbContextFactory<BenchDbContext>), taken);
        Assert.DoesNotContain(typeof(BenchDbContext), taken);
        Assert.Contains(typeof(SavedSecondsReader), taken);
    }

    [Theory]
    [InlineData(nameof(BenchDbContext.Runs), "Uploads", "Profiles", "Fleet.AgentDirectory", "Live", "Hubs", "Guard", "Configuration")]
    [InlineData(nameof(BenchDbContext.RunSeconds), "Uploads", "Profiles", "Fleet.AgentDirectory", "Live", "Hubs", "Guard", "Configuration")]
    [InlineData(nameof(BenchDbContext.Profiles), "Uploads", "Fleet.AgentDirectory", "Live", "Hubs", "Guard", "Configuration")]
    public void ThePartsBelowAnAggregatesReadSide_AskIt_NeverItsTable(string table, params string[] below)
    {
        // The upload store asks which plans name a file, the fleet's directory how many runs each agent executes, through the
        // read sides' delegates (Data/PlanHolders.cs). One write is theirs to make: deleting a profile unlinks its runs in
        // the same transaction.
        string[] writers = ["BenchWeb.Profiles.ProfileService.DeleteAsync"];
        var getter = typeof(BenchDbContext).GetProperty(table)!.GetMethod!;
        var readers = Web.GetTypes().Where(t => !t.IsNested && below.Any(b => t.FullName!.StartsWith($"BenchWeb.{b}", StringComparison.Ordinal)))
            .SelectMany(t => NamespaceGraph.MembersUsedBy(t).Where(u => u.Member == getter).Select(u => $"{t.FullName}.{MethodName(u.User)}"))
            .Except(writers).Distinct().Order(StringComparer.Ordinal).ToList();

        Assert.True(readers.Count == 0, $"{string.Join(", ", readers)} read(s) {table} itself; ask its read side.");
        // The check sees a table's readers at all: the runs' read side reads the runs.
        Assert.Contains(NamespaceGraph.MembersUsedBy(typeof(BenchWeb.History.RunReader)), u => u.Member == typeof(BenchDbContext).GetProperty(nameof(BenchDbContext.Runs))!.GetMethod);
    }

    // The method a compiler-made type belongs to: <DeleteAsync>d__9 → DeleteAsync.
    private static string MethodName(Type user) =>
        user.IsNested && user.Name.StartsWith('<') ? user.Name[1..user.Name.IndexOf('>', StringComparison.Ordinal)] : "";

    private static string Describe(IEnumerable<SortedSet<string>> loops) => string.Join("; ", loops.Select(l => string.Join(" ⇄ ", l)));
}
