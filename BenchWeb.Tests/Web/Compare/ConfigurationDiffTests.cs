using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Runs;
using BenchWeb.Tests.Support.Components;

namespace BenchWeb.Tests.Web.Compare;

public sealed class ConfigurationDiffTests
{
    [Fact]
    public async Task Diff_ListsExactlyTheSettingsAndEnvironmentValuesThatDiffer_WhenTwoRunsDifferInThree()
    {
        await using var context = new BenchWebComponentContext();
        var gateway = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("G1 gateway", CosmosConnectionMode.Gateway, concurrency: 20), CompareSeed.Environment(processors: 2), null);
        var direct = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("G4 direct", CosmosConnectionMode.Direct, concurrency: 50), CompareSeed.Environment(processors: 8), null);

        var diff = await DiffAsync(context, gateway, direct);

        Assert.Equal(
            ["Connection mode: Gateway | Direct", "Concurrency: 20 | 50", "Processor count: 2 | 8"],
            diff.Rows.Select(r => r.ToString()).ToArray());
        Assert.Equal(["target.cosmos.connectionMode", "load.concurrency", "environment.processorCount"], diff.Rows.Select(r => r.Path).ToArray());
        Assert.Equal(["Cosmos DB", "Load", "Client environment"], diff.Rows.Select(r => r.Group).ToArray());
    }

    [Fact]
    public async Task Diff_IsEmpty_WhenRunsDifferOnlyInName()
    {
        await using var context = new BenchWebComponentContext();
        var first = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("one"), CompareSeed.Environment(), null);
        var second = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("two"), CompareSeed.Environment(), null);

        var diff = await DiffAsync(context, first, second);

        Assert.Empty(diff.Rows);
    }

    [Fact]
    public async Task Diff_OfThreeRuns_ShowsMissingValuesAsDashAndKeepsMachineButNotSecretNames()
    {
        await using var context = new BenchWebComponentContext();
        var cosmos = CompareSeed.CosmosPlan("cosmos");
        var first = await CompareSeed.AddRunAsync(context.Databases, cosmos, CompareSeed.Environment(machine: "vm-a"), null);
        var otherKey = await CompareSeed.AddRunAsync(context.Databases,
            cosmos with { Name = "other key", Target = cosmos.Target with { Cosmos = cosmos.Target.Cosmos with { KeySecret = "OTHER_KEY" } } },
            CompareSeed.Environment(machine: "vm-b"), null);
        var simulated = await CompareSeed.AddRunAsync(context.Databases,
            new RunPlan { Name = "model", Load = new LoadOptions { Concurrency = 20 }, Stop = new StopOptions { DurationSeconds = 60 } },
            environment: null, null);

        var diff = await DiffAsync(context, first, otherKey, simulated);
        var rows = diff.Rows.ToDictionary(r => r.Path);

        Assert.Equal(["CosmosSql", "CosmosSql", "Simulated"], rows["target.kind"].Values);
        Assert.Equal("Target", rows["target.kind"].Label);
        Assert.Equal(["Gateway", "Gateway", ConfigurationDiff.Missing], rows["target.cosmos.connectionMode"].Values);
        Assert.Equal([ConfigurationDiff.Missing, ConfigurationDiff.Missing, "10000"], rows["target.simulator.provisionedRequestUnits"].Values);
        Assert.Equal(["vm-a", "vm-b", ConfigurationDiff.Missing], rows["environment.machineName"].Values);
        Assert.Equal("Machine name", rows["environment.machineName"].Label);
        Assert.Equal(["2", "2", ConfigurationDiff.Missing], rows["environment.processorCount"].Values);
        Assert.Equal(["8.0 GiB", "8.0 GiB", ConfigurationDiff.Missing], rows["environment.totalMemoryBytes"].Values);
        // Same concurrency everywhere; the secret's name and the run's name are not settings.
        Assert.DoesNotContain("load.concurrency", rows.Keys);
        Assert.DoesNotContain(rows.Keys, path => path.Contains("secret", StringComparison.OrdinalIgnoreCase) || path == "name");
        Assert.All(diff.Rows, row => Assert.Equal(3, row.Values.Count));
    }

    [Fact]
    public void Flatten_GivesPathsAndDisplayValues_OfPlanAndEnvironment()
    {
        var plan = CompareSeed.CosmosPlan("flat") with { Thresholds = new ThresholdOptions { MaxP99LatencyMs = 50 } };
        var values = ConfigurationDiff.Flatten(plan.ToJson(), System.Text.Json.JsonSerializer.Serialize(CompareSeed.Environment(), RunPlan.JsonOptions));

        Assert.Equal("Gateway", values["target.cosmos.connectionMode"]);
        Assert.Equal("no", values["target.cosmos.bulk"]);
        Assert.Equal("(none)", values["target.cosmos.excludedPaths"]);
        Assert.Equal("2", values["environment.processorCount"]);
        Assert.Equal("50", values["thresholds.maxP99LatencyMs"]);
        Assert.DoesNotContain("thresholds.isEmpty", values.Keys);
        Assert.DoesNotContain("target.cosmos.keySecret", values.Keys);
        Assert.DoesNotContain("target.simulator.provisionedRequestUnits", values.Keys);
        Assert.DoesNotContain("name", values.Keys);
    }

    private static async Task<ConfigurationDiff> DiffAsync(BenchWebComponentContext context, params long[] ids)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var comparison = await RunComparison.LoadAsync(db, ids, includeSeconds: false, CancellationToken.None);
        Assert.Empty(comparison.MissingIds);
        return comparison.Differences;
    }
}
