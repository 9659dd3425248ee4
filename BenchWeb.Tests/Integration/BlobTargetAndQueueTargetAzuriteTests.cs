using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>What the Blob Storage and Queue Storage targets do alike, against Azurite's blob and queue services: each
/// theory runs for both kinds. What landed is always counted with the SDK's own client (blobs listed, messages
/// received: <see cref="IAzuriteStorage.CountItemsAsync"/>), never by the target under test.</summary>
[Collection(AzuriteBlobsAndQueuesCollection.Name)]
[IntegrationTest]
public class BlobTargetAndQueueTargetAzuriteTests(AzuriteBlobServer blobs, AzuriteQueueServer queues)
{
    private const string Blob = "BlobStorage";
    private const string Queue = "QueueStorage";

    private IAzuriteStorage Server(string kind) => kind == Blob ? blobs : queues;

    private AzuriteService Azurite(string kind) => kind == Blob ? blobs : queues;

    [Theory]
    [InlineData(Blob, WriteOperation.Create)]
    [InlineData(Blob, WriteOperation.Upsert)]
    [InlineData(Queue, WriteOperation.Create)]
    [InlineData(Queue, WriteOperation.Upsert)]
    public async Task RunAsync_SumOfPerSecondOkEqualsWhatAnotherClientCountsAfterwards(string kind, WriteOperation operation)
    {
        var server = Server(kind);
        var name = StorageTargets.NewName();
        var plan = StorageTargets.Plan(server.Options(name) with { Operation = operation }, concurrency: 16, documents: 1_500);

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(server));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(1_500, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_500, await server.CountItemsAsync(name));
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task CountAsync_IsWhatAnotherClientCounts(string kind)
    {
        var server = Server(kind);
        var name = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(server.Options(name), StorageTargets.Context(server));
        for (var i = 0; i < 7; i++)
        {
            await target.WriteAsync([new BenchEngine.Workloads.Document("d" + i, "pk", [])], WriteOperation.Create, CancellationToken.None);
        }

        Assert.Equal(7, await target.CountAsync(CancellationToken.None));
        Assert.Equal(7, await server.CountItemsAsync(name));
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task InitializeAsync_OpensAnExistingResource_WhenCreatingIsOff(string kind)
    {
        var server = Server(kind);
        var name = StorageTargets.NewName();
        await server.CreateAsync(name);
        await using var target = await StorageTargets.OpenAsync(server.Options(name, createIfMissing: false), StorageTargets.Context(server));

        var outcome = await target.WriteAsync([new BenchEngine.Workloads.Document("d", "pk", [])], WriteOperation.Create, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, outcome.Kind);
        Assert.Equal(1, await server.CountItemsAsync(name));
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task InitializeAsync_FailsNamingTheResource_WhenItIsMissingAndCreatingIsOff(string kind)
    {
        var server = Server(kind);
        var name = StorageTargets.NewName();
        await using var target = TargetRegistry.Create(server.Options(name, createIfMissing: false), StorageTargets.Context(server));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal($"{server.Resource} '{name}' does not exist and creating it is off.", ex.Message);
        Assert.False(await server.ExistsAsync(name));
    }

    [Theory]
    [InlineData(Blob, "SECRET-garbage")]
    [InlineData(Blob, "DefaultEndpointsProtocol=http;AccountName=a;AccountKey=SECRET!!;BlobEndpoint=http://127.0.0.1:1/a;")]
    [InlineData(Blob, "AccountName=a;AccountKey=U0VDUkVU;BlobEndpoint=not a uri SECRET")]
    [InlineData(Queue, "SECRET-garbage")]
    [InlineData(Queue, "DefaultEndpointsProtocol=http;AccountName=a;AccountKey=SECRET!!;QueueEndpoint=http://127.0.0.1:1/a;")]
    [InlineData(Queue, "AccountName=a;AccountKey=U0VDUkVU;QueueEndpoint=not a uri SECRET")]
    public async Task InitializeAsync_FailsNamingTheSecretNotItsValue_WhenTheConnectionStringIsInvalid(string kind, string connectionString)
    {
        var server = Server(kind);
        await using var target = TargetRegistry.Create(server.Options(StorageTargets.NewName()), StorageTargets.Context(server, connectionString));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal($"The secret '{server.Secret}' is not a valid storage connection string.", ex.Message);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task InitializeAsync_FailsNamingTheSecret_WhenItIsNotSet(string kind)
    {
        var server = Server(kind);
        await using var target = TargetRegistry.Create(server.Options(StorageTargets.NewName()), StorageTargets.Context("OTHER", server.ConnectionString));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.StartsWith($"The secret '{server.Secret}' is not set.", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public async Task WriteAsync_ThrowsOperationCanceledNotAnError_WhenTheTokenIsCancelledInFlight(string kind)
    {
        var server = Server(kind);
        var name = StorageTargets.NewName();
        await using var proxy = new StallingProxy(server.Port);
        await using var target = await StorageTargets.OpenAsync(server.Options(name), StorageTargets.Context(server, server.ConnectionStringThrough(proxy.Port)));
        proxy.Stall();
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        var write = target.WriteAsync([new BenchEngine.Workloads.Document("d", "pk", [])], WriteOperation.Create, cancel.Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => write);
        Assert.Equal(0, await server.CountItemsAsync(name));
    }

    [Theory]
    [InlineData(Blob, "container")]
    [InlineData(Queue, "queue")]
    public async Task RunAsync_FailsWithoutShowingTheKey_WhenTheServerIsUnreachable(string kind, string resource)
    {
        var server = Server(kind);
        var plan = StorageTargets.Plan(server.Options("unreachable", createIfMissing: false), concurrency: 1, documents: 5);
        var closedPort = server.ConnectionString.Replace($":{server.Port}/", ":9/", StringComparison.Ordinal);

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(server, closedPort));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.StartsWith($"Cannot open {resource} 'unreachable' at http://127.0.0.1:9/devstoreaccount1: no response", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain(AzuriteService.DevelopmentKey[..10], result.FailureReason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Blob, "application/json", "")]
    [InlineData(Blob, "application/xml", "<?xml version=\"1.0\"?><Error><Code>Serv")]
    [InlineData(Queue, "application/json", "")]
    [InlineData(Queue, "application/xml", "<?xml version=\"1.0\"?><Error><Code>Serv")]
    public async Task RunAsync_CountsEveryBusyAnswerAsAThrottle_WhenItsBodyCannotBeRead(string kind, string contentType, string body)
    {
        // Every third write is answered 503 with a body the SDK's error parser throws on (not RequestFailedException).
        var server = Server(kind);
        var name = StorageTargets.NewName();
        await using var proxy = await StorageFaultProxy.StartAsync(Azurite(kind), n => n % 3 == 0, 503, contentType, body);
        var plan = StorageTargets.Plan(server.Options(name), concurrency: 1, documents: 150) with
        {
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(server, proxy.ConnectionString));

        // One at a time, each throttled write's retry is the next write, never a third one: 150 documents take 224 writes.
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal((224, 74, 150), (proxy.Writes, proxy.Faults, proxy.Passed));
        Assert.Equal(proxy.Faults, result.Summary.TotalThrottled);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(proxy.Passed, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(150, await server.CountItemsAsync(name));
    }

    [Theory]
    [InlineData(Blob, "application/json", "")]
    [InlineData(Blob, "application/xml", "not xml")]
    [InlineData(Queue, "application/json", "{}")]
    [InlineData(Queue, "application/xml", "")]
    public async Task WriteAsync_IsAnErrorByStatusAndCode_WhenARefusalsBodyCannotBeRead(string kind, string contentType, string body)
    {
        var server = Server(kind);
        await using var proxy = await StorageFaultProxy.StartAsync(Azurite(kind), _ => true, 403, contentType, body, "AuthorizationFailure");
        await using var target = await StorageTargets.OpenAsync(server.Options(StorageTargets.NewName()), StorageTargets.Context(server, proxy.ConnectionString));

        var outcome = await target.WriteAsync([new BenchEngine.Workloads.Document("d", "pk", [])], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, 403, 0), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal("403 AuthorizationFailure", outcome.Error);
        Assert.Contains("status: 403", target.DescribeRequest(new SlowRequestFacts(outcome, TimeSpan.FromMilliseconds(1), 1)).Text, StringComparison.Ordinal);
    }
}
