using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>A plan written to JSON keeps its target's kind, the settings every kind shares and the kind's own section; a plan
/// stored before, with every kind's section, still reads.</summary>
[UnitTest]
public sealed class RunPlanJsonTests
{
    /// <summary>A plan as this version stored it before: every kind's section, some set away from their defaults.</summary>
    private const string OldFullPlan = """
        {
          "name": "An old plan",
          "target": {
            "kind": "CosmosSql",
            "operation": "Upsert",
            "blobs": { "connectionStringSecret": "BLOBS_CONNECTION_STRING", "containerName": "benchweb", "createIfMissing": true },
            "cosmos": {
              "endpoint": "https://acme.documents.azure.com:443/",
              "keySecret": "ACME_KEY",
              "database": "bench",
              "container": "items",
              "partitionKeyPath": "/PartitionKey",
              "connectionMode": "Gateway",
              "limitToEndpoint": false,
              "acceptAnyServerCertificate": false,
              "bulk": true,
              "gatewayMaxConnections": 64,
              "contentResponseOnWrite": false,
              "createIfMissing": true,
              "indexing": "Consistent",
              "excludedPaths": [],
              "throughput": "Manual",
              "requestUnits": 4000
            },
            "queues": { "connectionStringSecret": "QUEUES_CONNECTION_STRING", "queueName": "benchweb", "createIfMissing": true },
            "redis": {
              "port": 6380, "useTls": true, "useAccessKey": true, "accessKeySecret": "REDIS_ACCESS_KEY", "database": 0,
              "keyPrefix": "benchweb:", "acceptAnyServerCertificate": false, "connectTimeoutMs": 5000
            },
            "simulator": { "provisionedRequestUnits": 25000, "physicalPartitions": 3, "indexing": "None", "medianLatencyMs": 5, "seed": 7 },
            "tables": { "connectionStringSecret": "TABLES_CONNECTION_STRING", "tableName": "flights", "createIfMissing": true }
          },
          "workload": { "shape": "SmallDto" },
          "load": { "model": "ClosedLoop", "concurrency": 16 },
          "stop": { "durationSeconds": 30 }
        }
        """;

    public static TheoryData<string> Kinds() => [.. TargetRegistry.All.Select(m => m.Kind.Name)];

    private static JsonObject TargetOf(string planJson) => JsonNode.Parse(planJson)!["target"]!.AsObject();

    [Fact]
    public void FromJson_ReadsAnOldPlanThatCarriesEverySection()
    {
        var plan = RunPlan.FromJson(OldFullPlan);

        Assert.Equal((TargetKind.CosmosSql, WriteOperation.Upsert), (plan.Target.Kind, plan.Target.Operation));
        Assert.Equal(("https://acme.documents.azure.com:443/", "ACME_KEY", CosmosConnectionMode.Gateway, true, 64, 4_000),
            (plan.Target.Cosmos.Endpoint, plan.Target.Cosmos.KeySecret, plan.Target.Cosmos.ConnectionMode, plan.Target.Cosmos.Bulk,
                plan.Target.Cosmos.GatewayMaxConnections, plan.Target.Cosmos.RequestUnits));
        Assert.Equal((25_000, 3), (plan.Target.Simulator.ProvisionedRequestUnits, plan.Target.Simulator.PhysicalPartitions));
        Assert.Equal("flights", plan.Target.Tables.TableName);
        Assert.Empty(plan.Validate());
    }

    [Fact]
    public void ToJson_OfAnOldPlan_KeepsItsKindsSectionOnly_AndReadsTheSame()
    {
        var old = RunPlan.FromJson(OldFullPlan);

        var json = old.ToJson();
        var read = RunPlan.FromJson(json);

        Assert.Equal(["kind", "operation", "cosmos"], TargetOf(json).Select(p => p.Key));
        Assert.Equal(JsonSerializer.Serialize(old.Target.Cosmos, RunPlan.JsonOptions), JsonSerializer.Serialize(read.Target.Cosmos, RunPlan.JsonOptions));
        Assert.Equal((old.Target.Kind, old.Target.Operation), (read.Target.Kind, read.Target.Operation));
        Assert.Equal(new SimulatorOptions(), read.Target.Simulator);
        Assert.Equal(json, read.ToJson());
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public void ToJson_WritesTheKindTheOperationAndTheKindsOwnSection(string kind)
    {
        var module = new TargetKind(kind).Module;
        var plan = new RunPlan { Target = new TargetOptions { Kind = module.Kind, Operation = WriteOperation.Upsert } };

        var target = TargetOf(plan.ToJson());

        string[] expected = module.Section is { } section ? ["kind", "operation", char.ToLowerInvariant(section[0]) + section[1..]] : ["kind", "operation"];
        Assert.Equal(expected, target.Select(p => p.Key));
        Assert.Equal((kind, "Upsert"), (target["kind"]!.GetValue<string>(), target["operation"]!.GetValue<string>()));
    }

    [Fact]
    public void TargetSettings_StillReachEveryKindsSection()
    {
        var options = new TargetOptions { Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com/" } };

        Assert.Equal(TargetKind.Simulated, options.Kind);
        Assert.Equal("https://acme.documents.azure.com/", TargetSettings.Text(options, "Target.Cosmos.Endpoint"));
        Assert.Equal("gateway.example", TargetSettings.Text(TargetSettings.Field("Target.Redis.Host")!.With(options, "gateway.example"), "Target.Redis.Host"));
        Assert.Equal("REDIS_ACCESS_KEY", TargetSettings.DefaultText("Target.Redis.AccessKeySecret"));
    }

    [Fact]
    public void SweepSteps_SetAnotherSectionsSetting_OnAPlanWrittenWithItsOwnSectionOnly()
    {
        var preset = SweepPresets.All.Single(p => p.Id == "G-study");
        var basePlan = SeedPresets.OnSimulator(preset.Plan);

        var steps = preset.Sweep.Steps(basePlan);

        Assert.Equal(["Gateway", "Direct"], steps.Select(s => s.Series).Distinct());
        Assert.All(steps, step =>
        {
            Assert.Equal(TargetKind.Simulated, step.Plan.Target.Kind);
            Assert.Equal(Enum.Parse<CosmosConnectionMode>(step.Series!), step.Plan.Target.Cosmos.ConnectionMode);
            Assert.Equal(basePlan.Target.Simulator, step.Plan.Target.Simulator);
        });
    }
}
