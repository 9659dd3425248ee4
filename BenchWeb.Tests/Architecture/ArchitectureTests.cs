using System.Reflection;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Architecture;

/// <summary>The web app's folders as its compiled code has them (<see cref="NamespaceGraph"/>): what the bottom layers may
/// not reach, and the knot of folders that reach each other, which may only shrink.</summary>
[UnitTest]
public sealed class ArchitectureTests
{
    private static readonly Assembly Web = typeof(BenchDbContext).Assembly;

    private static readonly Lazy<Dictionary<string, HashSet<string>>> Graph = new(() => NamespaceGraph.Of(Web, "BenchWeb"));

    /// <summary>The folders still in one loop on the way to none (the renovation unties it folder by folder). A folder that
    /// leaves it is taken off this list; one that joins it fails the test.</summary>
    private static readonly string[] Knot =
    [
        "Administration", "Agents", "Audit", "Jobs", "Live", "Profiles", "Runs", "Secrets", "Security", "Sweeps", "Uploads",
    ];

    [Fact]
    public void TheGraph_SeesReferencesInMethodBodies()
    {
        // Guards the tests below against an empty graph: a feature reaches the data layer, and the live feed's page is
        // known to follow it only through a method body (a call), which the graph must see.
        Assert.Contains("Data", Graph.Value["Runs"]);
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
        Assert.Contains("Security", Graph.Value["Hosting"]);
    }

    [Fact]
    public void NoFolderReachesOneThatReachesItBack_OutsideTheKnotBeingUntied()
    {
        var loops = NamespaceGraph.Loops(Graph.Value);
        var looped = loops.SelectMany(l => l).ToHashSet(StringComparer.Ordinal);

        var joined = looped.Except(Knot).Order(StringComparer.Ordinal).ToList();
        Assert.True(joined.Count == 0, $"{string.Join(", ", joined)} now reach(es) a folder that reaches back: {Describe(loops)}");
        var left = Knot.Except(looped).ToList();
        Assert.True(left.Count == 0, $"{string.Join(", ", left)} left the knot: take it off {nameof(Knot)}.");
        Assert.True(loops.Count <= 1, $"A second loop: {Describe(loops)}");
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
        Assert.Contains(typeof(BenchWeb.Components.Pages.Runs.RunLive).GetProperties(BindingFlags.Instance | BindingFlags.NonPublic), p => p.PropertyType == typeof(BenchWeb.Runs.RunReader));
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
        Assert.Contains(typeof(BenchWeb.Apis.RunsApi).GetMethods(BindingFlags.Static | BindingFlags.NonPublic), m => m.GetParameters().Any(p => p.ParameterType == typeof(BenchWeb.Runs.RunReader)));
    }

    private static string Describe(IEnumerable<SortedSet<string>> loops) => string.Join("; ", loops.Select(l => string.Join(" ⇄ ", l)));
}
