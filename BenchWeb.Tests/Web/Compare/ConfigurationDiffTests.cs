using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Compare;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;

namespace BenchWeb.Tests.Web.Compare;

[UnitTest]
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
            ["Concurrency: 20 | 50", "Connection mode: Gateway | Direct", "Gateway max connections: 50 | —", "Processor count: 2 | 8"],
            diff.Rows.Select(r => r.ToString()).ToArray());
        Assert.Equal(["load.concurrency", "target.cosmos.connectionMode", "target.cosmos.gatewayMaxConnections", "environment.processorCount"], diff.Rows.Select(r => r.Path).ToArray());
        Assert.Equal(["Load", "Client settings", "Client settings", "Client environment"], diff.Rows.Select(r => r.Group).ToArray());
    }

    [Fact]
    public async Task Diff_ShowsOneRowPerLabelInASection_WhenTwoKindsOfTargetKeepTheSettingInDifferentPlaces()
    {
        await using var context = new BenchWebComponentContext();
        var cosmos = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("cosmos"), null, null);
        var simulated = await CompareSeed.AddRunAsync(context.Databases,
            new RunPlan { Name = "model", Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400_000 } }, Load = new LoadOptions { Concurrency = 20 }, Stop = new StopOptions { DurationSeconds = 60 } },
            environment: null, null);

        var diff = await DiffAsync(context, cosmos, simulated);

        var target = diff.Rows.Where(r => r.Group == "Target").ToList();
        Assert.Equal(target.Count, target.Select(r => r.Label).Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(["10,000", "400,000"], target.Single(r => r.Label == "RU/s").Values);
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

        Assert.Equal(["Cosmos DB (SQL API)", "Cosmos DB (SQL API)", "Simulated Cosmos DB"], rows["target.kind"].Values);
        Assert.Equal("Target", rows["target.kind"].Label);
        Assert.Equal(["Gateway", "Gateway", ConfigurationDiff.Missing], rows["target.cosmos.connectionMode"].Values);
        // The Cosmos DB plans and the simulator's all provision 10,000 RU/s: one setting, the same for all, so no row.
        Assert.DoesNotContain(diff.Rows, r => r.Label == "RU/s");
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
    public async Task Diff_GroupsRowsBySectionInTheEditorsOrder_WithTargetsNamedAsPeopleSayThem()
    {
        await using var context = new BenchWebComponentContext();
        var gateway = await CompareSeed.AddRunAsync(context.Databases,
            CompareSeed.CosmosPlan("G1 gateway", CosmosConnectionMode.Gateway, concurrency: 20) with { Stop = new StopOptions { DurationSeconds = 60 } }, CompareSeed.Environment(processors: 2), null);
        var simulated = await CompareSeed.AddRunAsync(context.Databases,
            new RunPlan { Name = "model", Workload = new WorkloadOptions { Shape = DocumentShape.Flight }, Load = new LoadOptions { Concurrency = 50 }, Stop = new StopOptions { DurationSeconds = 120 } },
            CompareSeed.Environment(processors: 8), null);

        var diff = await DiffAsync(context, gateway, simulated);

        Assert.Equal(["Target", "Workload", "Load", "Client settings", "Stop", "Client environment"], diff.Rows.Select(r => r.Group).Distinct().ToArray());
        var rows = diff.Rows.ToDictionary(r => r.Path);
        Assert.Equal(["Cosmos DB (SQL API)", "Simulated Cosmos DB"], rows["target.kind"].Values);
        Assert.Equal("Client settings", rows["target.cosmos.connectionMode"].Group);
        Assert.Equal("Target", rows["target.cosmos.throughput"].Group);
        Assert.DoesNotContain(diff.Rows, r => r.Label == "RU/s");
    }

    [Fact]
    public async Task Diff_LeavesOutSettingsThatDoNotApplyToARunsTargetOrWorkload()
    {
        await using var context = new BenchWebComponentContext();
        // What a form keeps after its user switched shape, key strategy and connection mode: values nothing reads.
        var direct = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("direct", CosmosConnectionMode.Direct) with
        {
            Workload = new WorkloadOptions
            {
                Shape = DocumentShape.SmallDto,
                Template = "{\"left\": \"{{guid}}\"}",
                PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FieldValue, Field = "Origin", KeyCount = 10, HotKeyFraction = 0.8 },
            },
        }, null, null);
        var gateway = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("gateway", CosmosConnectionMode.Gateway) with
        {
            Target = CompareSeed.CosmosPlan("gateway", CosmosConnectionMode.Gateway).Target with
            {
                Cosmos = CompareSeed.CosmosPlan("gateway", CosmosConnectionMode.Gateway).Target.Cosmos with { GatewayMaxConnections = 100 },
            },
            Workload = new WorkloadOptions
            {
                Shape = DocumentShape.JsonTemplate,
                Template = "{\"id\": \"{{guid}}\"}",
                PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.HotKey, Field = "Origin", KeyCount = 20, HotKeyFraction = 0.9 },
            },
        }, null, null);
        var tables = await CompareSeed.AddRunAsync(context.Databases, SeededRuns.Plan(TargetKind.TableStorage, "tables"), null, null);

        var rows = (await DiffAsync(context, direct, gateway, tables)).Rows.ToDictionary(r => r.Path);

        Assert.Equal([ConfigurationDiff.Missing, "{\"id\": \"{{guid}}\"}", ConfigurationDiff.Missing], rows["workload.template"].Values);
        Assert.Equal([ConfigurationDiff.Missing, "20", ConfigurationDiff.Missing], rows["workload.partitionKey.keyCount"].Values);
        Assert.Equal([ConfigurationDiff.Missing, "0.9", ConfigurationDiff.Missing], rows["workload.partitionKey.hotKeyFraction"].Values);
        Assert.Equal(["Origin", ConfigurationDiff.Missing, "Origin"], rows["workload.partitionKey.field"].Values);
        Assert.Equal([ConfigurationDiff.Missing, "100", ConfigurationDiff.Missing], rows["target.cosmos.gatewayMaxConnections"].Values);
        Assert.Equal(["Direct", "Gateway", ConfigurationDiff.Missing], rows["target.cosmos.connectionMode"].Values);
    }

    [Fact]
    public void Flatten_GivesPathsAndDisplayValues_OfPlanAndEnvironment()
    {
        var plan = CompareSeed.CosmosPlan("flat") with { Thresholds = new ThresholdOptions { MaxP99LatencyMs = 50 } };
        var values = ConfigurationDiff.Flatten(plan.ToJson(), System.Text.Json.JsonSerializer.Serialize(CompareSeed.Environment(), RunPlan.JsonOptions));

        Assert.Equal("Gateway", values["target.cosmos.connectionMode"]);
        Assert.Equal("no", values["target.cosmos.bulk"]);
        // Excluded paths apply to an index that leaves paths out; this plan's is consistent.
        Assert.DoesNotContain("target.cosmos.excludedPaths", values.Keys);
        Assert.Equal("2", values["environment.processorCount"]);
        Assert.Equal("50", values["thresholds.maxP99LatencyMs"]);
        Assert.DoesNotContain("thresholds.isEmpty", values.Keys);
        Assert.DoesNotContain("target.cosmos.keySecret", values.Keys);
        Assert.DoesNotContain("target.simulator.provisionedRequestUnits", values.Keys);
        Assert.DoesNotContain("name", values.Keys);
    }

    [Fact]
    public void Flatten_WritesChoicesAsWordsAndWholeNumbersWithThousandsSeparators_NotAsTheirIdentifiers()
    {
        var plan = CompareSeed.CosmosPlan("words") with
        {
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = 10 },
            Stop = new StopOptions { TotalDocuments = 400_000 },
        };
        var values = ConfigurationDiff.Flatten(plan.ToJson(), null);

        Assert.Equal("Closed loop", values["load.model"]);
        Assert.Equal("Small DTO", values["workload.shape"]);
        Assert.Equal("400,000", values["stop.totalDocuments"]);
    }

    private static async Task<ConfigurationDiff> DiffAsync(BenchWebComponentContext context, params long[] ids)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var comparison = await RunComparison.LoadAsync(db, ids, includeSeconds: false, CancellationToken.None);
        Assert.Empty(comparison.MissingIds);
        return comparison.Differences;
    }
}
