using BenchWeb.Tests.Support;
using BenchEngine.Metrics;
using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using StackExchange.Redis;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>The Redis module's settings, presets and error texts, without a server.</summary>
[UnitTest]
public class RedisModuleTests
{
    private static readonly RedisOptions Azure = new() { Host = "myname.redis.cache.windows.net" };

    private static RunPlan PlanWith(RedisOptions redis, int batchSize = 1) => new()
    {
        Name = "redis",
        Target = new TargetOptions { Kind = TargetKind.Redis, Redis = redis },
        Load = new LoadOptions { BatchSize = batchSize },
        Stop = new StopOptions { TotalDocuments = 10 },
    };

    [Fact]
    public void Registry_OffersRedisByItsModule()
    {
        var module = TargetRegistry.Of(TargetKind.Redis);

        Assert.True(TargetRegistry.IsKnown(TargetKind.Redis));
        Assert.Equal(("Redis", "Azure Cache for Redis", "Redis"), (module.Kind.Name, module.DisplayName, module.Section));
        Assert.Equal(("key", "keys"), (module.Unit.Singular, module.Unit.Plural));
        Assert.False(TargetKind.Redis.ReportsRequestUnits());
        Assert.False(module.BatchesSharePartitionKey);
        Assert.Equal(1_000, module.MaxBatchSize);
        Assert.Equal("a Redis value", module.ItemLimit.Item);
        Assert.Equal(TargetInput.Secret, module.FieldAt("Target.Redis.AccessKeySecret")!.Input);
    }

    [Fact]
    public void Validate_AcceptsAnAzureCacheWithTheDefaults() => Assert.Empty(PlanWith(Azure).Validate());

    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("localhost")]
    [InlineData("[::1]")]
    public void Validate_AcceptsPlainRedisWithoutAKey_OnThisMachine(string host) =>
        Assert.Empty(PlanWith(new RedisOptions { Host = host, Port = 6379, UseTls = false, UseAccessKey = false }).Validate());

    [Theory]
    [InlineData("::1:6379")]
    [InlineData("::1")]
    [InlineData("2001:db8::1")]
    public void Validate_RefusesAnIPv6AddressWithoutBrackets_SayingToBracketIt(string host)
    {
        // "::1:6379" is a valid address, but not the loopback one the user meant ([::1] on port 6379).
        var errors = PlanWith(Azure with { Host = host }).Validate();

        var error = Assert.Single(errors, e => e.Field == "Target.Redis.Host");
        Assert.Contains("square brackets", error.Message, StringComparison.Ordinal);
        Assert.Contains("[::1]:6379", error.Message, StringComparison.Ordinal);
    }

    public static TheoryData<RedisOptions, string> BadSettings => new()
    {
        { Azure with { Host = null }, "Target.Redis.Host" },
        { Azure with { Host = "https://myname.redis.cache.windows.net" }, "Target.Redis.Host" },
        { Azure with { Host = "myname.redis.cache.windows.net:6380" }, "Target.Redis.Host" },
        { Azure with { Host = new string('h', 254) }, "Target.Redis.Host" },
        { Azure with { Port = 0 }, "Target.Redis.Port" },
        { Azure with { Port = 65_536 }, "Target.Redis.Port" },
        { Azure with { Database = -1 }, "Target.Redis.Database" },
        { Azure with { Database = 16 }, "Target.Redis.Database" },
        { Azure with { KeyPrefix = "" }, "Target.Redis.KeyPrefix" },
        { Azure with { KeyPrefix = "bench*" }, "Target.Redis.KeyPrefix" },
        { Azure with { KeyPrefix = "with space" }, "Target.Redis.KeyPrefix" },
        { Azure with { KeyPrefix = new string('p', 101) }, "Target.Redis.KeyPrefix" },
        { Azure with { AccessKeySecret = "" }, "Target.Redis.AccessKeySecret" },
        { Azure with { AccessKeySecret = new string('s', 201) }, "Target.Redis.AccessKeySecret" },
        { Azure with { UseTls = false }, "Target.Redis.UseTls" },
        { Azure with { UseAccessKey = false }, "Target.Redis.UseAccessKey" },
        { Azure with { AcceptAnyServerCertificate = true }, "Target.Redis.AcceptAnyServerCertificate" },
        { Azure with { ConnectTimeoutMs = 99 }, "Target.Redis.ConnectTimeoutMs" },
        { Azure with { ConnectTimeoutMs = 60_001 }, "Target.Redis.ConnectTimeoutMs" },
    };

    [Theory]
    [MemberData(nameof(BadSettings))]
    public void Validate_NamesTheFieldOfEachBadSetting(RedisOptions redis, string field)
    {
        var error = Assert.Single(PlanWith(redis).Validate());

        Assert.Equal(field, error.Field);
    }

    [Fact]
    public void Validate_SaysWhatAPlainRemoteServerNeeds()
    {
        var error = Assert.Single(PlanWith(Azure with { UseTls = false }).Validate());

        Assert.StartsWith("Plain Redis (no TLS) is only for a server on this machine", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_RefusesMoreThanAThousandKeysAPipeline()
    {
        Assert.Empty(PlanWith(Azure, batchSize: 1_000).Validate());
        var error = Assert.Single(PlanWith(Azure, batchSize: 1_001).Validate());

        Assert.Equal(("Load.BatchSize", "A pipelined batch holds at most 1,000 keys."), (error.Field, error.Message));
    }

    [Theory]
    [InlineData(true, "https://myname.redis.cache.windows.net:6380/")]
    [InlineData(false, "http://myname.redis.cache.windows.net:6380/")]
    public void PlannedEndpoint_IsHttpsWithTlsAndHttpWithout(bool useTls, string expected)
    {
        var options = new TargetOptions { Kind = TargetKind.Redis, Redis = Azure with { UseTls = useTls } };

        var planned = ((IServiceEndpoints)TargetRegistry.Of(TargetKind.Redis)).PlannedEndpoint(options);

        Assert.Equal(("Target.Redis.Host", new Uri(expected)), (planned?.Field, planned?.Endpoint));
    }

    [Fact]
    public void PlannedEndpoint_IsNone_WhenTheHostIsMissingOrNotAHostName()
    {
        var module = (IServiceEndpoints)TargetRegistry.Of(TargetKind.Redis);

        Assert.Null(module.PlannedEndpoint(new TargetOptions { Kind = TargetKind.Redis }));
        Assert.Null(module.PlannedEndpoint(new TargetOptions { Kind = TargetKind.Redis, Redis = Azure with { Host = "a b" } }));
    }

    [Theory]
    [InlineData(true, "TLS")]
    [InlineData(false, "no TLS")]
    public void ConnectionText_SaysWhetherTlsIsUsed(bool useTls, string expected) =>
        Assert.Equal(expected, ((IClientConnection)TargetRegistry.Of(TargetKind.Redis)).ConnectionText(new TargetOptions { Kind = TargetKind.Redis, Redis = Azure with { UseTls = useTls } }));

    [Fact]
    public void Describe_SaysTlsDatabaseAndPrefix_WithoutTheHost() =>
        Assert.Equal("Azure Cache for Redis, TLS, database 0, keys benchweb:*",
            TargetRegistry.Of(TargetKind.Redis).Describe(new TargetOptions { Kind = TargetKind.Redis, Redis = Azure }));

    [Fact]
    public void Presets_AreOfferedWithIdsOfTheirOwn_AndAskForTheUsersCache()
    {
        var presets = StoragePresets.All.Where(p => p.RealTarget == TargetKind.Redis).ToList();

        Assert.Equal(["RD1", "RD2"], presets.Select(p => p.Id));
        Assert.Equal(SeedPresets.All.Count, SeedPresets.All.Select(p => p.Id.ToUpperInvariant()).Distinct().Count());
        Assert.All(presets, preset =>
        {
            Assert.Same(preset, SeedPresets.Find(preset.Id));
            Assert.Equal(TargetKind.Redis, preset.RealTarget);
            var error = Assert.Single(preset.Plan.Validate());
            Assert.Equal("Target.Redis.Host", error.Field);
            Assert.Empty((preset.Plan with { Target = preset.Plan.Target with { Redis = Azure } }).Validate());
        });
        Assert.Equal((1, 1), (presets[0].Plan.Load.Concurrency, presets[0].Plan.Load.BatchSize));
        Assert.Equal((50, 10), (presets[1].Plan.Load.Concurrency, presets[1].Plan.Load.BatchSize));
    }

    [Theory]
    [InlineData("OOM command not allowed when used memory > 'maxmemory'.", "500 OOM")]
    [InlineData("BUSY Redis is busy running a script.", "500 BUSY")]
    [InlineData("LOADING Redis is loading the dataset in memory", "500 LOADING")]
    [InlineData("secret-token the server wrote this", "500 ServerError")]
    [InlineData("VERYVERYLONGERRORCODEXX whatever", "500 ServerError")]
    public void Describe_GivesTheServersErrorCodeAlone(string answer, string expected) =>
        Assert.Equal(expected, RedisTarget.Describe(new RedisServerException(answer)));

    [Fact]
    public void Describe_SaysNoResponse_WhenTheConnectionFailed() =>
        Assert.Equal("no response: RedisConnectionException (SocketClosed)",
            RedisTarget.Describe(new RedisConnectionException(ConnectionFailureType.SocketClosed, "closed by 10.0.0.1 key=SECRET")));

    [Fact]
    public void Describe_SaysTimedOut_WhenNoAnswerCameInTime() =>
        Assert.Equal("no response: the request timed out (RedisTimeoutException)",
            RedisTarget.Describe(new RedisTimeoutException("Timeout awaiting response, key=SECRET", CommandStatus.Sent)));

    [Fact]
    public void Tally_IsOk_WhenEverySetLanded()
    {
        var outcome = RedisTarget.Tally([Task.FromResult(true), Task.FromResult(true)], [100, 50]);

        Assert.Equal(OperationOutcome.Ok(200, 2, 0, 150), outcome);
    }

    [Fact]
    public void Tally_IsAnErrorThatCountsWhatLanded_WhenTheServerFailedSomeSets()
    {
        var outcome = RedisTarget.Tally(
            [Task.FromResult(true), Task.FromException<bool>(new RedisServerException("OOM full")), Task.FromResult(false)],
            [100, 50, 25]);

        Assert.Equal((OutcomeKind.Error, 500, 1, 100L), (outcome.Kind, outcome.StatusCode, outcome.Documents, outcome.Bytes));
        Assert.Equal("500 OOM (2 of 3 keys did not land)", outcome.Error);
    }

    [Fact]
    public void Tally_IsAnErrorWithoutAStatus_WhenNoAnswerCame()
    {
        var outcome = RedisTarget.Tally([Task.FromException<bool>(new RedisConnectionException(ConnectionFailureType.UnableToConnect, "down"))], [10]);

        Assert.Equal((OutcomeKind.Error, 0, 0), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal("no response: RedisConnectionException (UnableToConnect)", outcome.Error);
    }

    [Theory]
    [InlineData(false, new[] { 10, 10, 10 })]
    [InlineData(true, new[] { 1, 1, 1 })]
    public void WorkSource_BatchesTheNextDocuments_UnlessBatchesMustShareAPartitionKey(bool groupByPartitionKey, int[] firstBatches)
    {
        // A new partition key per document: grouped by key, every batch would hold one.
        using var source = DocumentSourceFactory.Create(new WorkloadOptions { Shape = DocumentShape.SmallDto }, TimeProvider.System);
        var work = new WorkSource(source, batchSize: 10, limit: 30, groupByPartitionKey);

        var sizes = new List<int>();
        while (sizes.Count < 3 && work.TryTake(out var batch))
        {
            sizes.Add(batch.Count);
        }

        Assert.Equal(firstBatches, sizes);
    }

    [Fact]
    public void RunRecorder_CountsTheKeysThatLanded_WhenAPipelinePartlyFailed()
    {
        var recorder = new RunRecorder();
        recorder.Record(OperationOutcome.PartlyFailed(409, 7, 700, "409 KeyExists (3 of 10 keys did not land)"));

        var second = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);

        Assert.Equal((7, 0, 1, 700), (second.Ok, second.OkRequests, second.Errors, second.Bytes));
        Assert.Equal(1, second.ErrorsByStatus[409]);
    }
}
