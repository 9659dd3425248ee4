using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

[Collection(CosmosApiCollection.Name)]
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
        await using var target = TargetFactory.Create(plan.Target, Context);
        await target.InitializeAsync(CancellationToken.None);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(1_200, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_200, await target.CountAsync(CancellationToken.None));
        Assert.Equal(1_200, result.Summary.TotalRequestUnits);
    }

    [Fact]
    public async Task Create_OfAnExistingId_IsACounted409_NotAnException()
    {
        await using var target = TargetFactory.Create(new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = Local("conflicts") }, Context);
        await target.InitializeAsync(CancellationToken.None);
        var document = new Document(Guid.NewGuid().ToString(), "pk", [new("PartitionKey", "pk")]);

        var first = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, first.Kind);
        Assert.Equal((OutcomeKind.Error, 409), (again.Kind, again.StatusCode));
    }
}
