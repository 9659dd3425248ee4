using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>How the Tables target reads the throttles and failures of Table Storage and the Cosmos DB Table API,
/// from a stub endpoint that answers like them (Azurite never throttles).</summary>
[IntegrationTest]
public class TableTargetThrottleTests
{
    private static List<Document> Documents(int count) =>
        Enumerable.Range(0, count).Select(i => new Document("r" + i, "pk", [new("Value", i)])).ToList();

    private static async Task<IInsertTarget> OpenAsync(TargetKind kind, StubTableServer server)
    {
        var options = new TargetOptions { Kind = kind, Tables = new TableOptions { TableName = "stubbed" } };
        var target = TargetRegistry.Create(options, new TargetContext(TimeProvider.System, _ => server.ConnectionString));
        await target.InitializeAsync(CancellationToken.None);
        return target;
    }

    [Theory]
    [InlineData(503, "ServerBusy", 1)]
    [InlineData(503, "ServerBusy", 100)]
    [InlineData(500, "OperationTimedOut", 1)]
    [InlineData(500, "OperationTimedOut", 100)]
    [InlineData(429, "TooManyRequests", 1)]
    public async Task WriteAsync_ReturnsThrottled_WhenTableStorageAnswersBusy(int status, string code, int documents)
    {
        await using var server = await StubTableServer.StartAsync(status, code);
        await using var target = await OpenAsync(TargetKind.TableStorage, server);

        var outcome = await target.WriteAsync(Documents(documents), WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Throttled, status, 0), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal(1, server.Writes);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    public async Task WriteAsync_ReturnsThrottledWithChargeAndRetryAfter_WhenTheCosmosTableApiAnswers429(int documents)
    {
        var headers = new Dictionary<string, string> { ["x-ms-request-charge"] = "1.24", ["x-ms-retry-after-ms"] = "250" };
        await using var server = await StubTableServer.StartAsync(429, "TooManyRequests", headers);
        await using var target = await OpenAsync(TargetKind.CosmosTable, server);

        var outcome = await target.WriteAsync(Documents(documents), WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal((OutcomeKind.Throttled, 429), (outcome.Kind, outcome.StatusCode));
        Assert.Equal(1.24, outcome.RequestUnits, 6);
        Assert.Equal(TimeSpan.FromMilliseconds(250), outcome.RetryAfter);
        Assert.Equal(1, server.Writes);
    }

    [Theory]
    [InlineData(503, "ServiceUnavailable")]
    [InlineData(500, "InternalServerError")]
    public async Task WriteAsync_ReturnsAnErrorWithStatusAndCode_WhenTheCosmosTableApiAnswersAnOutage(int status, string code)
    {
        await using var server = await StubTableServer.StartAsync(status, code, new Dictionary<string, string> { ["x-ms-request-charge"] = "0.5" });
        await using var target = await OpenAsync(TargetKind.CosmosTable, server);

        var outcome = await target.WriteAsync(Documents(1), WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, status), (outcome.Kind, outcome.StatusCode));
        Assert.StartsWith($"{status} {code}", outcome.Error, StringComparison.Ordinal);
        Assert.Equal(0.5, outcome.RequestUnits, 6);
    }

    [Fact]
    public async Task RunAsync_CountsEveryThrottleAndRetriesItself_WhenTableStorageKeepsAnswering503()
    {
        await using var server = await StubTableServer.StartAsync(503, "ServerBusy");
        var plan = new RunPlan
        {
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = "stubbed" } },
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
            Stop = new StopOptions { TotalDocuments = 2 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => server.ConnectionString));

        Assert.Equal(2 * 4, server.Writes);
        Assert.Equal(2 * 4, result.Summary.TotalThrottled);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(0, result.Summary.TotalOk);
    }

    [Theory]
    [InlineData(DocumentShape.SmallDto)]
    [InlineData(DocumentShape.Flight)]
    [InlineData(DocumentShape.PerformanceData)]
    public async Task WriteAsync_SendsABodyOfTheRequestedSize_WhenTheWorkloadIsPaddedForThisTarget(DocumentShape shape)
    {
        await using var server = await StubTableServer.StartAsync(503, "ServerBusy");
        await using var target = await OpenAsync(TargetKind.TableStorage, server);
        using var source = DocumentSourceFactory.Create(new WorkloadOptions { Shape = shape, TargetSizeBytes = 2_000 }, TimeProvider.System);
        source.MeasureWith(target.MeasureRequestBytes);

        for (var i = 0; i < 10; i++)
        {
            Assert.True(source.TryNext(out var document));
            await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        }

        Assert.All(server.BodyBytes, bytes => Assert.InRange(bytes, 1_990, 2_010));
    }
}
