using BenchWeb.Tests.Support;
using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>What the Blob Storage and Queue Storage modules declare: their settings' rules (reported by field path),
/// where a connection string points, and their presets. Each theory runs for both kinds.</summary>
[UnitTest]
public sealed class BlobTargetAndQueueTargetModuleTests
{
    private const string Blob = "BlobStorage";
    private const string Queue = "QueueStorage";

    private static TargetOptions Options(string kind, string name = "benchweb", string secret = "STORAGE") => kind == Blob
        ? new() { Kind = TargetKind.BlobStorage, Blobs = new BlobOptions { ContainerName = name, ConnectionStringSecret = secret } }
        : new() { Kind = TargetKind.QueueStorage, Queues = new QueueOptions { QueueName = name, ConnectionStringSecret = secret } };

    private static string Section(string kind) => kind == Blob ? "Target.Blobs" : "Target.Queues";

    private static string NameField(string kind) => Section(kind) + (kind == Blob ? ".ContainerName" : ".QueueName");

    private static IReadOnlyList<FieldError> Validate(TargetOptions target, WorkloadOptions? workload = null, int batchSize = 1) =>
        new RunPlan
        {
            Name = "storage",
            Target = target,
            Workload = workload ?? new WorkloadOptions(),
            Load = new LoadOptions { BatchSize = batchSize },
            Stop = new StopOptions { TotalDocuments = 10 },
        }.Validate();

    [Theory]
    [InlineData(Blob, "Blob Storage", "blob", "blobs", "Blobs")]
    [InlineData(Queue, "Queue Storage", "message", "messages", "Queues")]
    public void Module_IsRegisteredWithItsNameUnitsAndSection(string kind, string displayName, string singular, string plural, string section)
    {
        var module = new TargetKind(kind).Module;

        Assert.True(TargetRegistry.IsKnown(new TargetKind(kind)));
        Assert.Equal((displayName, singular, plural, section), (module.DisplayName, module.Unit.Singular, module.Unit.Plural, module.Section));
        Assert.Equal((1, false, false), (module.MaxBatchSize, module is IRequestUnitThroughput, module.IsModel));
        Assert.All(module.Fields, f => Assert.StartsWith(section == "Blobs" ? "Target.Blobs." : "Target.Queues.", f.Path, StringComparison.Ordinal));
    }

    [Fact]
    public void QueueNameHelp_SaysARetryAfterA5xxMayEnqueueAMessageTwice()
    {
        var help = new TargetKind(Queue).Module.Fields[1].Help;

        Assert.Contains("A write retried after a 5xx answer (503, 500) may leave its message twice", help, StringComparison.Ordinal);
        Assert.Contains("the queue can hold more messages than ok", help, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Blob, "abc")]
    [InlineData(Blob, "a-b-c")]
    [InlineData(Blob, "123")]
    [InlineData(Blob, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij123")]
    [InlineData(Queue, "abc")]
    [InlineData(Queue, "queue-01")]
    [InlineData(Queue, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij123")]
    public void Validate_AcceptsTheName_WhenItFollowsTheRules(string kind, string name) =>
        Assert.Empty(Validate(Options(kind, name)));

    [Theory]
    [InlineData(Blob, "ab")]
    [InlineData(Blob, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234")]
    [InlineData(Blob, "Upper")]
    [InlineData(Blob, "a--b")]
    [InlineData(Blob, "-abc")]
    [InlineData(Blob, "abc-")]
    [InlineData(Blob, "a_bc")]
    [InlineData(Blob, "")]
    [InlineData(Queue, "ab")]
    [InlineData(Queue, "Queue")]
    [InlineData(Queue, "q--1")]
    [InlineData(Queue, "-q1")]
    [InlineData(Queue, "q1-")]
    [InlineData(Queue, "q.1")]
    [InlineData(Queue, "")]
    public void Validate_RefusesTheNameByItsField_WhenItBreaksTheRules(string kind, string name)
    {
        var error = Assert.Single(Validate(Options(kind, name)));

        Assert.Equal(NameField(kind), error.Field);
        Assert.Equal("3–63 lowercase letters, digits and hyphens, starting and ending with a letter or digit, no two hyphens in a row.", error.Message);
    }

    [Theory]
    [InlineData(Blob)]
    [InlineData(Queue)]
    public void Validate_AsksForTheSecretByItsField_WhenNoSecretIsNamed(string kind)
    {
        var error = Assert.Single(Validate(Options(kind, secret: " ")));

        Assert.Equal(Section(kind) + ".ConnectionStringSecret", error.Field);
        Assert.Equal("Name the secret that holds the connection string.", error.Message);
    }

    [Theory]
    [InlineData(Blob, "Blob Storage writes one blob per request: set the batch size to 1.")]
    [InlineData(Queue, "Queue Storage writes one message per request: set the batch size to 1.")]
    public void Validate_RefusesBatches(string kind, string message)
    {
        var error = Assert.Single(Validate(Options(kind), batchSize: 2));

        Assert.Equal(("Load.BatchSize", message), (error.Field, error.Message));
    }

    [Fact]
    public void Validate_RefusesA65KiBDocumentForTheQueueByItsField_AndAcceptsItForABlob()
    {
        var workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 65 * 1024 };

        var error = Assert.Single(Validate(Options(Queue), workload));

        Assert.Equal("Workload.TargetSizeBytes", error.Field);
        Assert.EndsWith("; a Queue Storage message holds at most 65,536.", error.Message, StringComparison.Ordinal);
        Assert.Empty(Validate(Options(Blob), workload));
    }

    [Fact]
    public void Validate_AcceptsAQueueDocumentPaddedJustUnder64KiB() =>
        Assert.Empty(Validate(Options(Queue), new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 65_000 }));

    [Fact]
    public void Validate_RefusesATemplateWhoseMessageCanExceed64KiB_ByTheTemplateField()
    {
        var workload = new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = """{"body": "{{text:65536}}"}""" };

        var error = Assert.Single(Validate(Options(Queue), workload));

        Assert.Equal("Workload.Template", error.Field);
        Assert.EndsWith("a Queue Storage message holds at most 65,536.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsA3MBBlob_AndRefusesATemplateWhoseBlobCanExceed4MiB_ByTheTemplateField()
    {
        var threeMegabytes = new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = """{"a": "{{text:1500000}}", "b": "{{text:1500000}}"}""" };
        var sixMegabytes = new WorkloadOptions { Shape = DocumentShape.JsonTemplate, Template = """{"a": "{{text:2000000}}", "b": "{{text:2000000}}", "c": "{{text:2000000}}"}""" };

        var error = Assert.Single(Validate(Options(Blob), sixMegabytes));

        Assert.Empty(Validate(Options(Blob), threeMegabytes));
        Assert.Equal("Workload.Template", error.Field);
        Assert.EndsWith("a blob (one upload of at most 4 MiB here) holds at most 4,194,304.", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Blob, "BlobEndpoint=https://files.example.com:8443/acct;SharedAccessSignature=sv=x", "https://files.example.com:8443/")]
    [InlineData(Queue, "QueueEndpoint=https://queues.example.com/acct;SharedAccessSignature=sv=x", "https://queues.example.com/")]
    [InlineData(Blob, "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5", "https://acct.blob.core.windows.net/")]
    [InlineData(Queue, "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn", "https://acct.queue.core.chinacloudapi.cn/")]
    [InlineData(Blob, "UseDevelopmentStorage=true", "http://127.0.0.1:10000/")]
    [InlineData(Queue, "UseDevelopmentStorage=true", "http://127.0.0.1:10001/")]
    [InlineData(Blob, "QueueEndpoint=https://queues.example.com/acct;AccountName=acct;AccountKey=a2V5", "https://acct.blob.core.windows.net/")]
    [InlineData(Queue, "BlobEndpoint=https://files.example.com/acct;AccountName=acct;AccountKey=a2V5", "https://acct.queue.core.windows.net/")]
    public void EndpointOfSecret_IsTheServicesOwnEndpoint(string kind, string connectionString, string endpoint)
    {
        var module = new TargetKind(kind).Module;

        Assert.Equal(new Uri(endpoint), ((IServiceEndpoints)module).EndpointOfSecret(module.Fields[0], connectionString));
    }

    [Theory]
    [InlineData(Blob, "QueueEndpoint=https://queues.example.com/acct;SharedAccessSignature=sv=x")]
    [InlineData(Queue, "BlobEndpoint=https://files.example.com/acct;SharedAccessSignature=sv=x")]
    [InlineData(Blob, "not a connection string")]
    [InlineData(Queue, "UseDevelopmentStorage=false")]
    public void EndpointOfSecret_IsNull_WhenTheStringNamesNoEndpointOfTheService(string kind, string connectionString)
    {
        var module = new TargetKind(kind).Module;

        Assert.Null(((IServiceEndpoints)module).EndpointOfSecret(module.Fields[0], connectionString));
    }

    [Fact]
    public void DefaultSecretNames_AreEveryTargetsDefaultSecret() =>
        Assert.Equal(["COSMOS_KEY", "TABLES_CONNECTION_STRING", "BLOBS_CONNECTION_STRING", "QUEUES_CONNECTION_STRING", "REDIS_ACCESS_KEY"], TargetRegistry.DefaultSecretNames);

    [Theory]
    [InlineData(Blob, "Blob Storage, container files")]
    [InlineData(Queue, "Queue Storage, queue files (create and upsert both send; a write retried after a 5xx may be enqueued twice)")]
    public void Describe_NamesTheContainerOrQueue(string kind, string description) =>
        Assert.Equal(description, new TargetKind(kind).Module.Describe(Options(kind, "files")));

    [Fact]
    public void Plan_KeepsTheBlobSettings_ThroughItsJson_AndNotTheQueuesItDoesNotUse()
    {
        var plan = new RunPlan { Target = Options(Blob, "files", "MY_BLOBS") with { Queues = new QueueOptions { QueueName = "jobs", CreateIfMissing = false } } };

        var read = RunPlan.FromJson(plan.ToJson());

        Assert.Equal(plan.Target.Blobs, read.Target.Blobs);
        Assert.Equal(new QueueOptions(), read.Target.Queues);
        Assert.Equal(TargetKind.BlobStorage, read.Target.Kind);
    }

    [Theory]
    [InlineData(Blob, "BL1", 10, 10_000)]
    [InlineData(Blob, "BL2", 1, 1_000)]
    [InlineData(Queue, "Q1", 10, 10_000)]
    [InlineData(Queue, "Q2", 1, 1_000)]
    public void Presets_AreValidClosedLoopsOf1KBItems_WithNoInventedFigure(string kind, string id, int workers, long items)
    {
        var preset = SeedPresets.Find(id);

        Assert.NotNull(preset);
        Assert.Contains(preset, StoragePresets.All);
        Assert.Equal(new TargetKind(kind), preset.RealTarget);
        Assert.Empty(preset.Plan.Validate());
        Assert.Equal((DocumentShape.SmallDto, 1_024), (preset.Plan.Workload.Shape, preset.Plan.Workload.TargetSizeBytes));
        Assert.Equal((LoadModel.ClosedLoop, workers, items), (preset.Plan.Load.Model, preset.Plan.Load.Concurrency, preset.Plan.Stop.TotalDocuments));
        Assert.StartsWith("No original figure", preset.OriginalResult, StringComparison.Ordinal);
        Assert.Null(preset.OriginalInsertsPerSecond);
        Assert.Single(SeedPresets.All, p => string.Equals(p.Id, id, StringComparison.OrdinalIgnoreCase));
    }
}
