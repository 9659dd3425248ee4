using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

[Collection(AzuriteCollection.Name)]
public class TableTargetTests(AzuriteServer azurite)
{
    private TargetContext Context => new(TimeProvider.System, name => name == "TABLES_CONNECTION_STRING" ? azurite.ConnectionString : null);

    private static string NewTableName() => "t" + Guid.NewGuid().ToString("N")[..16];

    private async Task<(RunResult Result, long InTable)> RunAsync(RunPlan plan)
    {
        var runner = new BenchmarkRunner();
        var result = await runner.RunAsync(plan, Context);
        await using var counter = TargetFactory.Create(plan.Target, Context);
        await counter.InitializeAsync(CancellationToken.None);
        return (result, await counter.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task SingleInserts_SumOfPerSecondOk_EqualsEntitiesInTheTable()
    {
        var plan = new RunPlan
        {
            Name = "azurite single",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = NewTableName() } },
            Load = new LoadOptions { Concurrency = 16 },
            Stop = new StopOptions { TotalDocuments = 1_500 },
        };

        var (result, inTable) = await RunAsync(plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(1_500, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_500, inTable);
        Assert.Equal(0, result.Summary.TotalErrors);
    }

    [Fact]
    public async Task HundredEntityTransactions_SumOfPerSecondOk_EqualsEntitiesInTheTable()
    {
        var plan = new RunPlan
        {
            Name = "azurite batches",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = NewTableName() } },
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 10, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 5_000 },
        };

        var (result, inTable) = await RunAsync(plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(5_000, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(5_000, inTable);
        Assert.True(result.Summary.TotalOkRequests < 5_000 / 10, $"{result.Summary.TotalOkRequests} requests for 5,000 entities");
        Assert.True(result.Summary.LatencyIsPerBatch);
    }

    [Fact]
    public async Task Conflicts_AreCountedByStatus_NotThrown()
    {
        var options = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = NewTableName() } };
        await using var target = TargetFactory.Create(options, Context);
        await target.InitializeAsync(CancellationToken.None);
        var document = new Document("row-1", "pk", [new("Value", 1)]);

        var first = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var upsert = await target.WriteAsync([document], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, first.Kind);
        Assert.Equal((OutcomeKind.Error, 409), (again.Kind, again.StatusCode));
        Assert.Equal(OutcomeKind.Ok, upsert.Kind);
    }

    [Fact]
    public async Task AFailingBatch_IsOneErrorAndLandsNothing()
    {
        var options = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = NewTableName() } };
        await using var target = TargetFactory.Create(options, Context);
        await target.InitializeAsync(CancellationToken.None);
        await target.WriteAsync([new Document("dup", "pk", [])], WriteOperation.Create, CancellationToken.None);
        var batch = Enumerable.Range(0, 10).Select(i => new Document(i == 5 ? "dup" : "r" + i, "pk", [])).ToList();

        var outcome = await target.WriteAsync(batch, WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Error, outcome.Kind);
        Assert.Equal(409, outcome.StatusCode);
        Assert.Equal(1, await target.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task AnUnreachableServer_GivesCountedErrors_AndAFailedRun()
    {
        var plan = new RunPlan
        {
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = "unreachable", CreateIfMissing = false } },
            Stop = new StopOptions { TotalDocuments = 5 },
        };
        var closedPort = azurite.ConnectionString.Replace($":{azurite.Port}/", ":9/", StringComparison.Ordinal);
        var runner = new BenchmarkRunner();

        var result = await runner.RunAsync(plan, new TargetContext(TimeProvider.System, _ => closedPort));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("Cannot open table", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain("Eby8vdM02x", result.FailureReason, StringComparison.Ordinal);
    }
}
