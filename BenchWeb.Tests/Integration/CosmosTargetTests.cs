using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

[Collection(CosmosApiCollection.Name)]
[IntegrationTest]
public class CosmosTargetTests(CosmosApiServer server)
{
    private static TargetContext Context => new(TimeProvider.System, name => name == "COSMOS_KEY" ? CosmosApiServer.AnyKey : null);

    private CosmosOptions Local(string container) => new()
    {
        Endpoint = server.Endpoint,
        ConnectionMode = CosmosConnectionMode.Gateway,
        LimitToEndpoint = true,
        Database = "benchweb",
        Container = container,
        RequestUnits = null,
    };

    [Theory]
    [InlineData(WriteOperation.Create)]
    [InlineData(WriteOperation.Upsert)]
    public async Task PointWrites_SumOfPerSecondOk_EqualsDocumentsInTheContainer(WriteOperation operation)
    {
        var plan = new RunPlan
        {
            Name = "cosmos " + operation,
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Operation = operation, Cosmos = Local("c" + Guid.NewGuid().ToString("N")[..12]) },
            Load = new LoadOptions { Concurrency = 16 },
            Stop = new StopOptions { TotalDocuments = 1_200 },
        };
        var runner = new BenchmarkRunner();

        var result = await runner.RunAsync(plan, Context);
        await using var target = TargetRegistry.Create(plan.Target, Context);
        await target.InitializeAsync(CancellationToken.None);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(1_200, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_200, await target.CountAsync(CancellationToken.None));
        Assert.Equal(1_200, result.Summary.TotalRequestUnits);
    }

    [Fact]
    public async Task Create_OfAnExistingId_IsACounted409_NotAnException()
    {
        await using var target = TargetRegistry.Create(new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = Local("conflicts") }, Context);
        await target.InitializeAsync(CancellationToken.None);
        var document = new Document(Guid.NewGuid().ToString(), "pk", [new("PartitionKey", "pk")]);

        var first = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, first.Kind);
        Assert.Equal((OutcomeKind.Error, 409), (again.Kind, again.StatusCode));
    }

    [Fact]
    public async Task RunAsync_CountsRequestsCutOffByTheStopAsAbandonedNotErrors_WhenTheyNeverReturn()
    {
        var uri = new Uri(server.Endpoint);
        await using var proxy = new StallingProxy(uri.Port);
        var plan = new RunPlan
        {
            Name = "cut off",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = Local("cut" + Guid.NewGuid().ToString("N")[..12]) with { Endpoint = $"http://127.0.0.1:{proxy.Port}/" } },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 2 },
        };

        // After the first second every request hangs: those out when the stop's grace period ends are cut off.
        var result = await new BenchmarkRunner().RunAsync(plan, Context, new ActOnSecond(0, proxy.Stall));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(4, result.AbandonedRequests);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Null(result.FirstError);
        Assert.True(result.Summary.TotalOk > 0, "nothing landed before the stall");
    }

    [Fact]
    public async Task RunAsync_PricesNothing_WhenTheContainersThroughputCannotBeRead()
    {
        // The plan asks for 10,000 RU/s, but this server has no offers: what the container really has is unknown.
        var plan = new RunPlan
        {
            Name = "unknown throughput",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = Local("t" + Guid.NewGuid().ToString("N")[..12]) with { RequestUnits = 10_000 } },
            Stop = new StopOptions { TotalDocuments = 20 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.True(result.Summary.RequestUnitsReported);
        Assert.Null(result.Summary.ProvisionedRequestUnitsPerSecond);
        Assert.Null(result.Summary.EstimatedCostOfRun);
        Assert.Null(result.Summary.EstimatedCostPerMonth);
    }

    [Fact]
    public async Task RunAsync_SendsBodiesOfTheRequestedSize_WhenTheTargetAddsThePartitionKeyProperty()
    {
        // The documents have no "tenant" field: the target appends it to every body, and the padding must make room for it.
        var plan = new RunPlan
        {
            Name = "sized",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = Local("s" + Guid.NewGuid().ToString("N")[..12]) with { PartitionKeyPath = "/tenant" } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 661 },
            Stop = new StopOptions { TotalDocuments = 50 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(50, result.Summary.TotalOk);
        Assert.InRange(result.Seconds.Sum(s => s.Bytes) / 50.0, 656, 666);
    }
}
