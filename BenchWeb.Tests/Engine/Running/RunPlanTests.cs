using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchWeb.Tests.Engine.Running;

public class RunPlanTests
{
    private static readonly RunPlan Valid = new() { Name = "ok", Stop = new StopOptions { TotalDocuments = 100 } };

    public static TheoryData<RunPlan, string, string> InvalidPlans() => new()
    {
        { Valid with { Load = new LoadOptions { Concurrency = 0 } }, "Load.Concurrency", "at least 1" },
        { Valid with { Stop = new StopOptions { TotalDocuments = -5 } }, "Stop.TotalDocuments", "at least 1" },
        { Valid with { Target = new TargetOptions { Kind = TargetKind.TableStorage }, Load = new LoadOptions { BatchSize = 101 }, Workload = new WorkloadOptions { Shape = DocumentShape.Flight } }, "Load.BatchSize", "at most 100" },
        { Valid with { Load = new LoadOptions { RatePerSecond = 100 } }, "Load.RatePerSecond", "open loop only" },
        { Valid with { Load = new LoadOptions { Model = LoadModel.OpenLoop } }, "Load.RatePerSecond", "needs a rate" },
        { Valid with { Target = new TargetOptions { Kind = TargetKind.CosmosSql } }, "Target.Cosmos.Endpoint", "endpoint" },
        { Valid with { Workload = new WorkloadOptions { TargetSizeBytes = 3_000_000 } }, "Workload.TargetSizeBytes", "2 MB" },
        { Valid with { Stop = new StopOptions() }, "Stop", "when to stop" },
        { Valid with { Target = new TargetOptions { Kind = TargetKind.TableStorage }, Load = new LoadOptions { BatchSize = 100 } }, "Load.BatchSize", "share a partition key" },
        { Valid with { Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 50_000, PhysicalPartitions = 2 } } }, "Target.Simulator.PhysicalPartitions", "10,000" },
        { Valid with { Stop = new StopOptions { TotalDocuments = 10, AutoStop = new AutoStopOptions { ThrottledFractionAbove = 1.5 } } }, "Stop.AutoStop.ThrottledFractionAbove", "between 0 and 1" },
    };

    [Theory]
    [MemberData(nameof(InvalidPlans))]
    public void Validate_NamesTheFieldWithAClearMessage_WhenASettingIsInvalid(RunPlan plan, string field, string messagePart)
    {
        var errors = plan.Validate();

        var error = Assert.Single(errors, e => e.Field == field);
        Assert.Contains(messagePart, error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Validate_ReturnsNoErrors_ForTheDefaultSimulatedPlan()
    {
        Assert.Empty(new RunPlan().Validate());
    }

    [Fact]
    public void Json_RoundTripsEverySetting()
    {
        var plan = new RunPlan
        {
            Name = "L1",
            Target = new TargetOptions
            {
                Kind = TargetKind.CosmosTable,
                Operation = WriteOperation.Upsert,
                Tables = new TableOptions { TableName = "flights" },
                Cosmos = new CosmosOptions { Endpoint = "https://x.documents.azure.com:443/", ExcludedPaths = ["/a/?"] },
            },
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight, TargetSizeBytes = 1725 },
            Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 10, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 50_000, AutoStop = new AutoStopOptions { ThrottledFractionAbove = 0.2 } },
        };

        var json = plan.ToJson();
        var back = RunPlan.FromJson(json);

        Assert.Equal(json, back.ToJson());
        Assert.Contains("\"kind\": \"CosmosTable\"", json, StringComparison.Ordinal);
    }

    [Fact]
    public void FromJson_SaysWhere_WhenTheDocumentIsMalformed()
    {
        var ex = Assert.Throws<RunPlanValidationException>(() => RunPlan.FromJson("""{ "load": { "concurrency": "many" } }"""));

        Assert.Equal("$.load.concurrency", Assert.Single(ex.Errors).Field);
    }

    [Fact]
    public void FromJson_RejectsUnknownSettings_SoTyposAreNotSilentlyIgnored()
    {
        var ex = Assert.Throws<RunPlanValidationException>(() => RunPlan.FromJson("""{ "laod": {} }"""));

        Assert.Contains("laod", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Json_NeverHoldsASecret_OnlyItsName()
    {
        var json = new RunPlan { Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://a/" } } }.ToJson();

        Assert.Contains("\"keySecret\": \"COSMOS_KEY\"", json, StringComparison.Ordinal);
    }
}
