using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
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
        { Valid with { Thresholds = new ThresholdOptions { MinShareOfBaseline = 95 } }, "Thresholds.MinShareOfBaseline", "at most 10, that is above 0 % and at most 1,000 %" },
    };

    private static readonly RunPlan Cosmos = Valid with
    {
        Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acct.documents.azure.com:443/" } },
    };

    private static readonly RunPlan Tables = Valid with { Target = new TargetOptions { Kind = TargetKind.TableStorage } };

    /// <summary>Every double a plan holds, set to <paramref name="value"/>, with the field that must be refused.</summary>
    public static TheoryData<RunPlan, string> EveryDoubleSetTo(double value) => new()
    {
        { Valid with { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = value } }, "Load.RatePerSecond" },
        { Valid with { Load = new LoadOptions { Throttling = new ThrottleOptions { BaseDelayMs = value } } }, "Load.Throttling.BaseDelayMs" },
        { Valid with { Stop = new StopOptions { DurationSeconds = value } }, "Stop.DurationSeconds" },
        { Valid with { Stop = new StopOptions { TotalDocuments = 10, AutoStop = new AutoStopOptions { ThrottledFractionAbove = value } } }, "Stop.AutoStop.ThrottledFractionAbove" },
        { Valid with { Stop = new StopOptions { TotalDocuments = 10, AutoStop = new AutoStopOptions { ErrorFractionAbove = value } } }, "Stop.AutoStop.ErrorFractionAbove" },
        { Valid with { Thresholds = new ThresholdOptions { MinThroughput = value } }, "Thresholds.MinThroughput" },
        { Valid with { Thresholds = new ThresholdOptions { MaxP99LatencyMs = value } }, "Thresholds.MaxP99LatencyMs" },
        { Valid with { Thresholds = new ThresholdOptions { MaxThrottledPercent = value } }, "Thresholds.MaxThrottledPercent" },
        { Valid with { Thresholds = new ThresholdOptions { MinShareOfBaseline = value } }, "Thresholds.MinShareOfBaseline" },
        { Valid with { Target = new TargetOptions { Simulator = new SimulatorOptions { MedianLatencyMs = value } } }, "Target.Simulator.MedianLatencyMs" },
        { Valid with { Workload = new WorkloadOptions { PartitionKey = new() { Strategy = PartitionKeyStrategy.HotKey, HotKeyFraction = value } } }, "Workload.PartitionKey.HotKeyFraction" },
    };

    public static TheoryData<RunPlan, string> EveryDoubleNaN() => EveryDoubleSetTo(double.NaN);

    public static TheoryData<RunPlan, string> EveryDoublePositiveInfinity() => EveryDoubleSetTo(double.PositiveInfinity);

    public static TheoryData<RunPlan, string> EveryDoubleNegativeInfinity() => EveryDoubleSetTo(double.NegativeInfinity);

    [Theory]
    [MemberData(nameof(EveryDoubleNaN))]
    [MemberData(nameof(EveryDoublePositiveInfinity))]
    [MemberData(nameof(EveryDoubleNegativeInfinity))]
    public void Validate_RefusesTheSetting_WhenADoubleIsNaNOrInfinite(RunPlan plan, string field)
    {
        Assert.Contains(plan.Validate(), e => e.Field == field);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    [InlineData(1_001)]
    public void Validate_RefusesTheSimulatorsPartitions_WithOneMessage_WhenOutsideTheirBounds(int partitions)
    {
        var plan = Valid with { Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 50_000, PhysicalPartitions = partitions } } };

        // Zero partitions serve no RU/s at all: the count's own bounds say what is wrong, not a budget split by zero.
        var error = Assert.Single(plan.Validate());

        Assert.Equal(("Target.Simulator.PhysicalPartitions", "Between 1 and 1,000."), (error.Field, error.Message));
    }

    [Fact]
    public void Validate_RefusesTheName_WhenLongerThan200Characters()
    {
        Assert.Empty((Valid with { Name = new string('n', 200) }).Validate());

        var error = Assert.Single((Valid with { Name = new string('n', 201) }).Validate());

        Assert.Equal("Name", error.Field);
        Assert.Contains("200", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void DocumentLimit_Saturates_WhenDocumentsPerWorkerTimesWorkersOverflows()
    {
        var plan = Valid with { Load = new LoadOptions { Concurrency = 10_000 }, Stop = new StopOptions { DocumentsPerWorker = long.MaxValue / 2 } };

        Assert.Equal(long.MaxValue, plan.DocumentLimit);
        Assert.Contains(plan.Validate(), e => e.Field == "Stop.DocumentsPerWorker");
    }

    [Theory]
    [InlineData(1_000_000_000_001L, null)]
    [InlineData(null, 100_000_000_001L)]
    [InlineData(long.MaxValue, null)]
    public void Validate_RefusesTheCount_WhenTheTotalExceeds10To12(long? total, long? perWorker)
    {
        var plan = Valid with { Load = new LoadOptions { Concurrency = 10 }, Stop = new StopOptions { TotalDocuments = total, DocumentsPerWorker = perWorker } };

        var error = Assert.Single(plan.Validate());

        Assert.StartsWith("Stop.", error.Field, StringComparison.Ordinal);
        Assert.Contains("1,000,000,000,000", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0.09, "at least 0.1")]
    [InlineData(1_000_001, "at most 1,000,000")]
    public void Validate_RefusesAnOpenLoopRate_WhenOutsideItsRange(double rate, string message)
    {
        var plan = Valid with { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = rate } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Load.RatePerSecond", error.Field);
        Assert.Contains(message, error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Validate_AcceptsTheSlowestOpenLoopRate()
    {
        Assert.Empty((Valid with { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 0.1 } }).Validate());
    }

    public static TheoryData<RunPlan, string, string> OversizedDocuments() => new()
    {
        // 1.2 M characters of text: over a Cosmos DB item's 2 MB only with the second field.
        { Cosmos with { Workload = Template("""{ "a": "{{text:1200000}}", "b": "x{{text:1000000}}" }""") }, "Workload.Template", "2,097,152" },
        { Valid with { Workload = Template("""{ "a": "{{text:2000000}}", "b": "{{pick:x|y}}{{text:200000}}" }""") }, "Workload.Template", "2,097,152" },
        // A Table entity counts 2 bytes a character, and one property holds at most 32,768 characters.
        { Tables with { Workload = Template("""{ "a": "{{text:40000}}" }""") }, "Workload.Template", "32,768" },
        { Tables with { Workload = Template("""{ "a": "{{text:30000}}", "b": "{{text:30000}}" , "c": "{{text:30000}}", "d": "{{text:30000}}", "e": "{{text:30000}}", "f": "{{text:30000}}", "g": "{{text:30000}}", "h": "{{text:30000}}", "i": "{{text:30000}}", "j": "{{text:30000}}", "k": "{{text:30000}}", "l": "{{text:30000}}", "m": "{{text:30000}}", "n": "{{text:30000}}", "o": "{{text:30000}}", "p": "{{text:30000}}", "q": "{{text:30000}}", "r": "{{text:30000}}" }""") }, "Workload.Template", "1,048,576" },
        { Tables with { Workload = new WorkloadOptions { TargetSizeBytes = 100_000 } }, "Workload.TargetSizeBytes", "32,768" },
    };

    [Theory]
    [MemberData(nameof(OversizedDocuments))]
    public void Validate_RefusesTheWorkload_WhenADocumentCanExceedTheTargetsItemLimit(RunPlan plan, string field, string limit)
    {
        var error = Assert.Single(plan.Validate(), e => e.Field == field);

        Assert.Contains(limit, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("CosmosSql", """{ "a": "{{text:2000000}}", "n": "{{seq}}" }""", null)]
    [InlineData("CosmosSql", """{ "a": "{{guid}}" }""", 2_000_000)]
    [InlineData("CosmosSql", """{ "a": "{{text:2000000}}" }""", 2_000_000)]
    [InlineData("TableStorage", """{ "a": "{{text:32000}}", "b": "{{text:32000}}" }""", null)]
    [InlineData("TableStorage", """{ "a": "{{guid}}" }""", 30_000)]
    public void Validate_AcceptsTheWorkload_WhenEveryDocumentFitsTheTarget(string kindName, string template, int? targetSize)
    {
        var kind = new TargetKind(kindName);
        var plan = (kind == TargetKind.CosmosSql ? Cosmos : Tables) with { Workload = Template(template) with { TargetSizeBytes = targetSize } };

        Assert.Empty(plan.Validate());
    }

    [Theory]
    [InlineData("ftp://acct.documents.azure.com/", "http or https")]
    [InlineData("file:///etc/passwd", "http or https")]
    [InlineData("http://acct.documents.azure.com:443/", "https")]
    public void Validate_RefusesTheEndpoint_WhenItsSchemeIsNotAllowed(string endpoint, string message)
    {
        var plan = Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { Endpoint = endpoint } } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Cosmos.Endpoint", error.Field);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("http://127.0.0.1:8081/")]
    [InlineData("http://localhost:8081/")]
    [InlineData("http://[::1]:8081/")]
    [InlineData("https://acct.documents.azure.com:443/")]
    public void Validate_AcceptsTheEndpoint_WhenHttpsOrLoopback(string endpoint)
    {
        var plan = Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { Endpoint = endpoint, AcceptAnyServerCertificate = !endpoint.Contains("azure", StringComparison.Ordinal) } } };

        Assert.Empty(plan.Validate());
    }

    [Fact]
    public void Validate_RefusesAcceptingAnyCertificate_WhenTheHostIsNotLoopback()
    {
        var plan = Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { AcceptAnyServerCertificate = true } } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Cosmos.AcceptAnyServerCertificate", error.Field);
    }

    private static WorkloadOptions Template(string template) => new() { Shape = DocumentShape.JsonTemplate, Template = template };

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

    [Theory]
    [InlineData("https://user:pw@acct.documents.azure.com:443/")]
    [InlineData("https://key@acct.documents.azure.com/")]
    [InlineData("http://user:pw@127.0.0.1:8081/")]
    public void Validate_RefusesACosmosEndpointWithCredentials_WithoutRepeatingThem(string endpoint)
    {
        var plan = new RunPlan
        {
            Name = "credentials",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = endpoint } },
            Stop = new StopOptions { TotalDocuments = 10 },
        };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Cosmos.Endpoint", error.Field);
        Assert.Contains("store the key as a secret", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("pw", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("key@", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/a//b")]
    [InlineData("/a/")]
    [InlineData("// ")]
    public void Validate_RefusesAPartitionKeyPath_WithAnEmptyPart(string path)
    {
        var plan = new RunPlan
        {
            Name = "key path",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acct.documents.azure.com/", PartitionKeyPath = path } },
            Stop = new StopOptions { TotalDocuments = 10 },
        };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Cosmos.PartitionKeyPath", error.Field);
        Assert.Contains("no //", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Target.Cosmos.Database", "../../x", "A database name may not contain /, \\, # or ?")]
    [InlineData("Target.Cosmos.Database", "back\\slash", "A database name may not contain")]
    [InlineData("Target.Cosmos.Database", "db ", "may not end with a space")]
    [InlineData("Target.Cosmos.Container", "a/b#?", "A container name may not contain /, \\, # or ?")]
    [InlineData("Target.Cosmos.Container", "what?", "A container name may not contain")]
    [InlineData("Target.Cosmos.Container", "inserts ", "may not end with a space")]
    public void Validate_RefusesADatabaseOrContainerName_ThatTheServiceRefuses(string field, string name, string message)
    {
        var cosmos = Cosmos.Target.Cosmos;
        var plan = Cosmos with { Target = Cosmos.Target with { Cosmos = field.EndsWith("Database", StringComparison.Ordinal) ? cosmos with { Database = name } : cosmos with { Container = name } } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal(field, error.Field);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsDatabaseAndContainerNames_WithSpacesDotsAndHyphensInside() =>
        Assert.Empty((Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { Database = "bench web.1", Container = "in-serts_2" } } }).Validate());

    [Theory]
    [InlineData(new[] { "no-slash" }, "Path 1 of the list does not start with /")]
    [InlineData(new[] { "/payload/*", "SomeText/?", "/ok/?", "x" }, "Paths 2, 4 of the list do not start with /")]
    public void Validate_RefusesAnExcludedPath_ThatDoesNotStartAtTheRoot_NamingItsPosition(string[] paths, string message)
    {
        var plan = Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { Indexing = IndexingMode.ExcludedPaths, ExcludedPaths = paths } } };

        var error = Assert.Single(plan.Validate());

        Assert.Equal("Target.Cosmos.ExcludedPaths", error.Field);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Contains("/payload/*", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsExcludedPaths_FromTheRoot() =>
        Assert.Empty((Cosmos with { Target = Cosmos.Target with { Cosmos = Cosmos.Target.Cosmos with { Indexing = IndexingMode.ExcludedPaths, ExcludedPaths = ["/payload/*", "/SomeText/?"] } } }).Validate());

    [Theory]
    [InlineData("TableStorage", "TABLES_CONNECTION_STRING")]
    [InlineData("CosmosTable", "TABLES_CONNECTION_STRING")]
    [InlineData("BlobStorage", "BLOBS_CONNECTION_STRING")]
    [InlineData("QueueStorage", "QUEUES_CONNECTION_STRING")]
    [InlineData("Redis", "REDIS_ACCESS_KEY")]
    [InlineData("CosmosSql", "COSMOS_KEY")]
    public void Validate_GivesAnExampleSecretNameThatFitsTheTarget_WhenAValueIsPastedAsTheName(string kind, string example)
    {
        const string Pasted = "abc+def/ghi==";
        var target = new TargetOptions
        {
            Kind = new TargetKind(kind),
            Cosmos = Cosmos.Target.Cosmos with { KeySecret = Pasted },
            Tables = new TableOptions { ConnectionStringSecret = Pasted },
            Blobs = new BlobOptions { ConnectionStringSecret = Pasted },
            Queues = new QueueOptions { ConnectionStringSecret = Pasted },
            Redis = new RedisOptions { Host = "myname.redis.cache.windows.net", AccessKeySecret = Pasted },
        };

        var error = Assert.Single((Valid with { Target = target }).Validate(), e => e.Field.EndsWith("Secret", StringComparison.Ordinal));

        Assert.Contains($"e.g. {example})", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("COSMOS_KEY", kind == "CosmosSql" ? "" : error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsANestedPartitionKeyPath() =>
        Assert.Empty(new RunPlan
        {
            Name = "nested",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acct.documents.azure.com/", PartitionKeyPath = "/address/city" } },
            Stop = new StopOptions { TotalDocuments = 10 },
        }.Validate());
}
