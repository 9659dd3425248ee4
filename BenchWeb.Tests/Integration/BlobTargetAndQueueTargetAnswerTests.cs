using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>How the Blob Storage and Queue Storage targets read the services' throttles and failures, from a stub endpoint
/// that answers like them (Azurite never throttles), and how the endpoint policy stops them before they connect. Each
/// theory runs for both kinds.</summary>
[IntegrationTest]
public class BlobTargetAndQueueTargetAnswerTests
{
    private const string Blob = "BlobStorage";
    private const string Queue = "QueueStorage";
    private const string Refusal = "not on the allow-list";

    private static StorageService Service(string kind) => kind == Blob ? StorageConnectionString.Blobs : StorageConnectionString.Queues;

    private static TargetOptions Options(string kind) => kind == Blob
        ? new() { Kind = TargetKind.BlobStorage, Blobs = new BlobOptions { ContainerName = "stubbed", ConnectionStringSecret = "STORAGE" } }
        : new() { Kind = TargetKind.QueueStorage, Queues = new QueueOptions { QueueName = "stubbed", ConnectionStringSecret = "STORAGE" } };

    private static TargetContext Context(string connectionString) => StorageTargets.Context("STORAGE", connectionString);

    private static Document Document(int i = 0) => new("d" + i, "pk", [new("Value", i)]);

    [Theory]
    [InlineData(Blob, 503, "ServerBusy")]
    [InlineData(Blob, 500, "OperationTimedOut")]
    [InlineData(Blob, 429, "TooManyRequests")]
    [InlineData(Queue, 503, "ServerBusy")]
    [InlineData(Queue, 500, "OperationTimedOut")]
    [InlineData(Queue, 429, "TooManyRequests")]
    public async Task WriteAsync_ReturnsThrottled_WhenTheServiceAnswersBusy(string kind, int status, string code)
    {
        await using var server = await StubStorageServer.StartAsync(Service(kind), status, code);
        await using var target = await StorageTargets.OpenAsync(Options(kind), Context(server.ConnectionString));

        var outcome = await target.WriteAsync([Document()], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Throttled, status, 0, (TimeSpan?)null), (outcome.Kind, outcome.StatusCode, outcome.Documents, outcome.RetryAfter));
        Assert.Equal(1, server.Writes);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task WriteAsync_ReturnsTheServicesRetryAfter_WhenA503CarriesOne(string kind)
    {
        await using var server = await StubStorageServer.StartAsync(Service(kind), 503, "ServerBusy", new Dictionary<string, string> { ["Retry-After"] = "3" });
        await using var target = await StorageTargets.OpenAsync(Options(kind), Context(server.ConnectionString));

        var outcome = await target.WriteAsync([Document()], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal((OutcomeKind.Throttled, 503), (outcome.Kind, outcome.StatusCode));
        Assert.Equal(TimeSpan.FromSeconds(3), outcome.RetryAfter);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task RunAsync_CountsEveryThrottleAndRetriesItself_WhenTheServiceKeepsAnswering503(string kind)
    {
        await using var server = await StubStorageServer.StartAsync(Service(kind), 503, "ServerBusy");
        var plan = new RunPlan
        {
            Target = Options(kind),
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
            Stop = new StopOptions { TotalDocuments = 2 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context(server.ConnectionString));

        // Each document: the first try and 3 retries, every one sent by the engine (the SDK retries none) and counted.
        Assert.Equal(2 * 4, server.Writes);
        Assert.Equal(2 * 4, result.Summary.TotalThrottled);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(0, result.Summary.TotalOk);
    }

    [Theory]
    [InlineData(Blob, 403, "AuthorizationFailure")]
    [InlineData(Blob, 404, "ContainerNotFound")]
    [InlineData(Queue, 403, "AuthenticationFailed")]
    [InlineData(Queue, 404, "QueueNotFound")]
    public async Task WriteAsync_IsAnErrorWithStatusAndCodeButNotTheServicesWords_WhenTheServiceRefuses(string kind, int status, string code)
    {
        await using var server = await StubStorageServer.StartAsync(Service(kind), status, code, message: "SECRET-BODY of the endpoint");
        await using var target = await StorageTargets.OpenAsync(Options(kind), Context(server.ConnectionString));

        var outcome = await target.WriteAsync([Document()], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, status), (outcome.Kind, outcome.StatusCode));
        Assert.Equal($"{status} {code}", outcome.Error);
    }

    [Fact]
    public async Task WriteAsync_SendsABlobBodyOfExactlyTheRequestedSize_WhenTheWorkloadIsPadded()
    {
        await using var server = await StubStorageServer.StartAsync(StorageConnectionString.Blobs, 503, "ServerBusy");
        await using var target = await StorageTargets.OpenAsync(Options(Blob), Context(server.ConnectionString));
        using var source = DocumentSourceFactory.Create(new WorkloadOptions { Shape = DocumentShape.Flight, TargetSizeBytes = 2_000 }, TimeProvider.System);
        source.MeasureWith(target.MeasureRequestBytes);

        for (var i = 0; i < 10; i++)
        {
            Assert.True(source.TryNext(out var document));
            await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        }

        Assert.Equal(Enumerable.Repeat(2_000L, 10), server.BodyBytes);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task InitializeAsync_RefusesBeforeAnyConnection_WhenThePolicyRefusesTheEndpoint(string kind)
    {
        await using var silent = new SilentServer();
        var connectionString = $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteService.DevelopmentKey};{Service(kind).Name}Endpoint={silent.Endpoint}devstoreaccount1;";
        var context = Context(connectionString) with { Endpoints = new EndpointPolicy(uri => uri.Port == silent.Port ? Refusal : null) };
        await using var target = TargetRegistry.Create(Options(kind), context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Equal($"Cannot use the {(kind == Blob ? "blob" : "queue")} endpoint {silent.Endpoint}devstoreaccount1 of the secret 'STORAGE': {Refusal}", ex.Message);
        Assert.Equal(0, await silent.ConnectionsBeforeAsync());
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task InitializeAsync_RefusesPlainHttpToAnotherMachine_WithTheDefaultPolicy(string kind)
    {
        var connectionString = $"DefaultEndpointsProtocol=http;AccountName=acct;AccountKey={AzuriteService.DevelopmentKey};{Service(kind).Name}Endpoint=http://acct.example.invalid/acct;";
        await using var target = TargetRegistry.Create(Options(kind), Context(connectionString));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Contains("Use https for 'acct.example.invalid'", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(AzuriteService.DevelopmentKey[..10], ex.Message, StringComparison.Ordinal);
    }
}
