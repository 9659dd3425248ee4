using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using StackExchange.Redis;

namespace BenchWeb.Tests.Integration;

/// <summary>The Redis target against Debian's redis-server. What landed is always counted by a client of the test's own
/// (<see cref="Support.RedisServer.CountKeysAsync(string, int)"/>), never by the target under test.</summary>
[Collection(RedisCollection.Name)]
[IntegrationTest]
public class RedisTargetTests(RedisServer redis)
{
    private const string KeySecret = "REDIS_ACCESS_KEY";

    private static TargetContext ContextWithKey(string? key) => new(TimeProvider.System, name => name == KeySecret ? key : null);

    private static TargetContext NoSecrets => ContextWithKey(null);

    private static string NewPrefix() => "t" + Guid.NewGuid().ToString("N")[..12] + ":";

    /// <summary>A plain server on this machine without a password.</summary>
    private static TargetOptions Local(RedisServer server, string prefix, WriteOperation operation = WriteOperation.Create) => new()
    {
        Kind = TargetKind.Redis,
        Operation = operation,
        Redis = new RedisOptions
        {
            Host = "127.0.0.1",
            Port = server.Port,
            UseTls = server.UsesTls,
            AcceptAnyServerCertificate = server.UsesTls,
            UseAccessKey = server.Password is not null,
            KeyPrefix = prefix,
        },
    };

    private static List<Document> Batch(int count, int first = 0) =>
        Enumerable.Range(first, count).Select(i => new Document("k" + i, "pk", [new("Value", i)])).ToList();

    private static async Task<IInsertTarget> OpenAsync(TargetOptions options, TargetContext context)
    {
        var target = TargetRegistry.Create(options, context);
        await target.InitializeAsync(CancellationToken.None);
        return target;
    }

    private static RunPlan Plan(TargetOptions target, int concurrency, int batchSize, long documents) => new()
    {
        Name = "redis",
        Target = target,
        Load = new LoadOptions { Concurrency = concurrency, BatchSize = batchSize },
        Stop = new StopOptions { TotalDocuments = documents },
    };

    [Fact]
    public async Task RunAsync_SumOfPerSecondOkEqualsKeysCountedIndependently_WhenSettingOneKeyPerRequest()
    {
        var prefix = NewPrefix();
        var plan = Plan(Local(redis, prefix), concurrency: 16, batchSize: 1, documents: 1_500);

        var result = await new BenchmarkRunner().RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(0, result.Summary.TotalThrottled);
        Assert.Equal(1_500, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(1_500, await redis.CountKeysAsync(prefix));
        Assert.False(result.Summary.RequestUnitsReported);
    }

    [Theory]
    [InlineData(WriteOperation.Create)]
    [InlineData(WriteOperation.Upsert)]
    public async Task RunAsync_LandsExactlyEveryKey_WhenPipeliningBatchesOfTen(WriteOperation operation)
    {
        var prefix = NewPrefix();
        var plan = Plan(Local(redis, prefix, operation), concurrency: 8, batchSize: 10, documents: 2_000);

        var result = await new BenchmarkRunner().RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(2_000, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(200, result.Summary.TotalOkRequests);
        Assert.True(result.Summary.LatencyIsPerBatch);
        Assert.Equal(2_000, await redis.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task WriteAsync_StoresTheDocumentsJsonUnderThePrefixedId_AndCountAsyncAgrees()
    {
        var prefix = NewPrefix();
        await using var target = await OpenAsync(Local(redis, prefix), NoSecrets);
        var document = new Document("doc-1", "pk", [new("Text", "hello"), new("Count", 7)]);

        var outcome = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Ok, 200, 1), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal(target.MeasureRequestBytes(document), outcome.Bytes);
        await using var connection = await redis.ConnectAsync();
        Assert.Equal("""{"id":"doc-1","Text":"hello","Count":7}""", (string?)await connection.GetDatabase().StringGetAsync(prefix + "doc-1"));
        Assert.Equal(1, await target.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task WriteAsync_CountsAnExistingKeyAsAnErrorNotAThrottle_WhenCreating()
    {
        var prefix = NewPrefix();
        await using var target = await OpenAsync(Local(redis, prefix), NoSecrets);
        var document = new Document("row-1", "pk", [new("Value", 1)]);

        var first = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);
        var upsert = await target.WriteAsync([document], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, first.Kind);
        Assert.Equal((OutcomeKind.Error, 409, 0, "409 KeyExists"), (again.Kind, again.StatusCode, again.Documents, again.Error));
        Assert.Equal(OutcomeKind.Ok, upsert.Kind);
        Assert.Equal(1, await redis.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task WriteAsync_CountsTheKeysThatLanded_WhenSomeKeysOfAPipelineExist()
    {
        var prefix = NewPrefix();
        await using var target = await OpenAsync(Local(redis, prefix), NoSecrets);
        await target.WriteAsync(Batch(3, first: 4), WriteOperation.Create, CancellationToken.None);

        var outcome = await target.WriteAsync(Batch(10), WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, 409, 7), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal("409 KeyExists (3 of 10 keys did not land)", outcome.Error);
        Assert.Equal(10, await redis.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task RunAsync_CountsExistingKeysAsErrorsNeverThrottles_AndTheSumOfOkStillEqualsTheNewKeys()
    {
        var prefix = NewPrefix();
        await using (var connection = await redis.ConnectAsync())
        {
            // The first key of every fourth pipeline exists already: those pipelines land 9 keys and fail on 1.
            var database = connection.GetDatabase();
            await Task.WhenAll(Enumerable.Range(0, 13).Select(i => database.StringSetAsync(prefix + "k" + (40 * i), "before")));
        }

        var runner = new BenchmarkRunner(TimeProvider.System, sourceFactory: (_, _) => new NumberedDocuments(500));
        var result = await runner.RunAsync(Plan(Local(redis, prefix), concurrency: 4, batchSize: 10, documents: 500), NoSecrets);

        Assert.Equal(0, result.Summary.TotalThrottled);
        Assert.Equal(13, result.Summary.TotalErrors);
        Assert.Equal(37, result.Summary.TotalOkRequests);
        Assert.Equal(500 - 13, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(500, await redis.CountKeysAsync(prefix));
        Assert.Equal("409 KeyExists (1 of 10 keys did not land)", result.FirstError);
    }

    [Fact]
    public async Task WriteAsync_LandsInTheDatabaseTheOptionsName()
    {
        var prefix = NewPrefix();
        var options = Local(redis, prefix);
        await using var target = await OpenAsync(options with { Redis = options.Redis with { Database = 3 } }, NoSecrets);

        await target.WriteAsync(Batch(5), WriteOperation.Create, CancellationToken.None);

        Assert.Equal(5, await redis.CountKeysAsync(prefix, database: 3));
        Assert.Equal(0, await redis.CountKeysAsync(prefix, database: 0));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    public async Task WriteAsync_ThrowsOperationCanceledAndSendsNothing_WhenTheTokenIsAlreadyCancelled(int documents)
    {
        var prefix = NewPrefix();
        await using var target = await OpenAsync(Local(redis, prefix), NoSecrets);
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => target.WriteAsync(Batch(documents), WriteOperation.Create, cancelled.Token));

        Assert.Equal(0, await redis.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task InitializeAsync_RefusesBeforeConnecting_WhenThePolicyRefusesTheServer()
    {
        await using var connection = await redis.ConnectAsync();
        var before = await RedisServer.ConnectionsReceivedAsync(connection);
        Uri? asked = null;
        var context = NoSecrets with
        {
            Endpoints = new EndpointPolicy(uri =>
            {
                asked = uri;
                return "It is not on the allow-list.";
            }),
        };
        await using var target = TargetRegistry.Create(Local(redis, NewPrefix()), context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal(
            $"Cannot use the Redis server 127.0.0.1:{redis.Port} (checked as http://127.0.0.1:{redis.Port}: TLS as https, plain Redis as http): It is not on the allow-list.",
            ex.Message);
        Assert.Equal(new Uri($"http://127.0.0.1:{redis.Port}/"), asked);
        Assert.Equal(before, await RedisServer.ConnectionsReceivedAsync(connection));
    }

    [Fact]
    public async Task InitializeAsync_RefusesPlainRedisToAnotherMachine_BeforeConnecting()
    {
        var options = new TargetOptions
        {
            Kind = TargetKind.Redis,
            Redis = new RedisOptions { Host = "cache.invalid", Port = 6379, UseTls = false },
        };
        await using var target = TargetRegistry.Create(options, ContextWithKey("not-used"));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.StartsWith("Cannot use the Redis server cache.invalid:6379 (checked as http://cache.invalid:6379: TLS as https, plain Redis as http): Use https", ex.Message, StringComparison.Ordinal);
        Assert.Null(ex.InnerException);
    }

    [Fact]
    public async Task RunAsync_CountsFailuresAndKeepsWhatItMeasured_WhenTheServerStopsMidRun()
    {
        await using var server = await RedisServer.StartAsync();
        var plan = Plan(Local(server, NewPrefix()), concurrency: 4, batchSize: 1, documents: 1) with
        {
            Stop = new StopOptions { DurationSeconds = 30 },
        };

        // After the first second the server is gone: every write after that fails, and the run says so.
        var result = await new BenchmarkRunner().RunAsync(plan, NoSecrets, new ActOnSecond(0, server.Kill));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.True(result.Seconds.Sum(s => s.Ok) > 0, "nothing landed before the server stopped");
        Assert.True(result.Summary.TotalErrors > 0, "no failure was counted");
        Assert.Equal(result.Summary.TotalErrors, result.Seconds.Sum(s => s.Errors));
        Assert.Equal(0, result.Summary.TotalThrottled);
        Assert.StartsWith("no response: RedisConnectionException", result.FirstError, StringComparison.Ordinal);
        Assert.Contains("Errors dominate", result.FailureReason, StringComparison.Ordinal);
        Assert.True(result.Seconds.Count < 30, $"the run went on for {result.Seconds.Count} s against a stopped server");
    }

    /// <summary>The client's default would hold a write issued while disconnected in a queue for up to its 5 s timeout and
    /// send it after a reconnect; here it fails at once, as what it is.</summary>
    [Fact]
    public async Task WriteAsync_FailsAtOnceRatherThanWaitingInAQueue_WhenTheConnectionIsDown()
    {
        await using var server = await RedisServer.StartAsync();
        await using var target = await OpenAsync(Local(server, NewPrefix()), NoSecrets);
        server.Kill();

        var outcome = await target.WriteAsync(Batch(10), WriteOperation.Create, CancellationToken.None);

        // A write held in the queue would end in the client's RedisTimeoutException after its 5 s; failing at once, it is a
        // connection failure (whether the client had yet seen the connection drop or the write found out).
        Assert.Equal((OutcomeKind.Error, 0, 0), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.StartsWith("no response: RedisConnectionException", outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_SignsInWithTheAccessKey_WhenTheServerHasAPassword()
    {
        const string password = "correct-horse-battery";
        await using var server = await RedisServer.StartAsync(password);
        var prefix = NewPrefix();

        var result = await new BenchmarkRunner().RunAsync(Plan(Local(server, prefix), 4, 1, 200), ContextWithKey(password));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(200, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(200, await server.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task InitializeAsync_FailsNamingTheSecretNotTheKey_WhenTheAccessKeyIsWrong()
    {
        const string password = "correct-horse-battery";
        const string wrong = "WRONG-key-0123456789";
        await using var server = await RedisServer.StartAsync(password);
        await using var target = TargetRegistry.Create(Local(server, NewPrefix()), ContextWithKey(wrong));

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal(
            $"Cannot connect to Redis at 127.0.0.1:{server.Port}: the server refused the access key in the secret '{KeySecret}'.",
            ex.Message);
        Assert.DoesNotContain(wrong, ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(password, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task InitializeAsync_SaysTheServerWantsAKey_WhenThePlanSignsInWithout()
    {
        await using var server = await RedisServer.StartAsync("correct-horse-battery");
        var options = Local(server, NewPrefix());
        await using var target = TargetRegistry.Create(options with { Redis = options.Redis with { UseAccessKey = false } }, NoSecrets);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Contains("wants an access key", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task InitializeAsync_NamesTheMissingSecret_WhenTheAccessKeyIsNotSet()
    {
        await using var server = await RedisServer.StartAsync("correct-horse-battery");
        await using var target = TargetRegistry.Create(Local(server, NewPrefix()), NoSecrets);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.StartsWith($"The secret '{KeySecret}' is not set.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_LandsEveryKeyOverTls_WhenTheLocalServersSelfSignedCertificateIsAccepted()
    {
        await using var server = await RedisServer.StartAsync(tls: true);
        var prefix = NewPrefix();

        var result = await new BenchmarkRunner().RunAsync(Plan(Local(server, prefix), 4, 10, 500), NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(500, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(500, await server.CountKeysAsync(prefix));
    }

    [Fact]
    public async Task InitializeAsync_Fails_WhenTheServersCertificateIsSelfSignedAndNotAccepted()
    {
        await using var server = await RedisServer.StartAsync(tls: true);
        var options = Local(server, NewPrefix());
        await using var target = TargetRegistry.Create(options with { Redis = options.Redis with { AcceptAnyServerCertificate = false } }, NoSecrets);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None));

        Assert.Equal(
            $"Cannot connect to Redis at 127.0.0.1:{server.Port}: the TLS handshake failed (the server's certificate was not accepted, or the port does not speak TLS).",
            ex.Message);
    }

    [Fact]
    public async Task RunAsync_FailsNamingTheServer_WhenNothingListens()
    {
        var options = Local(redis, NewPrefix());
        var plan = Plan(options with { Redis = options.Redis with { Port = 9, ConnectTimeoutMs = 1_000 } }, 1, 1, 5);

        var result = await new BenchmarkRunner().RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.StartsWith("Cannot connect to Redis at 127.0.0.1:9: no response: RedisConnectionException", result.FailureReason, StringComparison.Ordinal);
    }

    /// <summary>The server's error answers are reduced to their code: nothing else the server wrote reaches a run.</summary>
    [Fact]
    public async Task WriteAsync_ReportsTheServersErrorCodeOnly_WhenTheCacheIsFull()
    {
        await using var server = await RedisServer.StartAsync();
        var prefix = NewPrefix();
        await using var target = await OpenAsync(Local(server, prefix), NoSecrets);
        await using (var connection = await server.ConnectAsync())
        {
            await connection.GetServers()[0].ConfigSetAsync("maxmemory", "1");
        }

        var outcome = await target.WriteAsync([new Document("big", "pk", [new("Text", new string('x', 10_000))])], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, 500, "500 OOM"), (outcome.Kind, outcome.StatusCode, outcome.Error));
        Assert.Equal(0, await server.CountKeysAsync(prefix));
    }

    /// <summary>Documents k0, k1, … in order, so that a test knows their keys before the run.</summary>
    private sealed class NumberedDocuments(int count) : IDocumentSource
    {
        private int _next;

        public string Description => "numbered documents";

        public bool TryNext(out Document document)
        {
            var number = _next++;
            document = new Document("k" + number, "pk", [new("Value", number)]);
            return number < count;
        }

        public void Dispose()
        {
        }
    }
}
