using AngleSharp.Dom;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>Every rule of every section of the profile editor, broken one at a time: exactly the input that edits the
/// setting is outlined (<c>aria-invalid</c>), and the rule's message shows beside it. A rule about several settings (say
/// when to stop; the stages together) shows its message and outlines no input.</summary>
[UnitTest]
public sealed class ProfileEditRuleOutlineTests
{
    /// <summary>One broken rule: how to break it from a new profile (or from a stored one), the input it outlines (null
    /// for a rule about several settings), where its message shows and a part of it.</summary>
    private sealed record BrokenRule(SettingDescriptor Setting, string Message, Func<IRenderedComponent<ProfileEdit>, Task> Break)
    {
        /// <summary>The stored profile the editor opens, for a rule whose input shows only when it applies (the agents).</summary>
        public ProfileDraft? Start { get; init; }

        /// <summary>The outlined input's id and the message's field, when not the setting's editor path (a stage's row).</summary>
        public string? At { get; init; }

        public bool ManySettings { get; init; }

        /// <summary>The inputs another rule, broken by the same change, outlines too (the installation's, beside the engine's).</summary>
        public IReadOnlyList<string> AlsoOutlined { get; init; } = [];
    }

    private static Func<IRenderedComponent<ProfileEdit>, Task> Set(params (string Id, object Value)[] changes) => async page =>
    {
        foreach (var (id, value) in changes)
        {
            if (id.StartsWith('#'))
            {
                await page.Find(id).ClickAsync(new MouseEventArgs());
            }
            else
            {
                await page.Find(Id(id)).ChangeAsync(value);
            }
        }
    };

    private const string AddStage = "#add-stage";
    private const string OpenLoop = nameof(LoadModel.OpenLoop);

    // Declared before the rules that use them: static fields are set in the order of the text.
    private const string CosmosEndpoint = "Target.Cosmos.Endpoint";
    private const string AcmeEndpoint = "https://acme.documents.azure.com:443/";

    // A Cosmos DB profile with an account endpoint and its key pasted (an environment variable would need binding to it).
    private static readonly (string Id, object Value)[] Cosmos = [Kind(nameof(TargetKind.CosmosSql)), (CosmosEndpoint, AcmeEndpoint), ("NewCosmosKey", "a2V5")];

    // A Redis server on this machine, which needs no access key.
    private static readonly (string Id, object Value)[] Redis = [Kind(nameof(TargetKind.Redis)), ("Target.Redis.Host", "localhost"), ("Target.Redis.UseAccessKey", false)];

    // An Azure cache, with its access key pasted.
    private static readonly (string Id, object Value)[] RemoteRedis = [Kind(nameof(TargetKind.Redis)), ("Target.Redis.Host", "bench.redis.cache.windows.net"), ("NewRedisAccessKey", "a2V5")];

    private static (string Id, object Value) Kind(string kind) => ("Target.Kind", kind);

    // A target's setting, as the catalogue holds it (one per path: two kinds' fields of one path are one setting).
    private static SettingDescriptor Target(string path) => PlanSettingsCatalog.Targets.Single(d => d.Path == path);

    private static readonly Dictionary<string, BrokenRule> Rules = new(StringComparer.Ordinal)
    {
        ["Name: empty"] = new(PlanSettingsCatalog.Name, "a name", Set(("Name", ""))),
        ["Name: too long"] = new(PlanSettingsCatalog.Name, "At most 200 characters.", Set(("Name", new string('x', 201)))),
        ["Name: control character"] = new(PlanSettingsCatalog.Name, "control character", Set(("Name", "a\u0007b"))),
        ["Template: required"] = new(PlanSettingsCatalog.Template, "A JSON template is required", Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.JsonTemplate)))),
        ["Template: not a template"] = new(PlanSettingsCatalog.Template, "", Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.JsonTemplate)), ("Workload.Template", "{\"id\": {{nope}}"))),
        ["Document size: not positive"] = new(PlanSettingsCatalog.TargetSizeBytes, "positive number of bytes", Set(("Workload.TargetSizeBytes", "0"))),
        ["Document size: beyond an item"] = new(PlanSettingsCatalog.TargetSizeBytes, "at most 2,000,000 bytes", Set(("Workload.TargetSizeBytes", "3000000"))),
        ["CSV file: none chosen"] = new(PlanSettingsCatalog.CsvFileId, WebPlanRulesChoose, Set(("Workload.Shape", nameof(BenchEngine.Workloads.DocumentShape.CsvFile)))),
        ["Key field: empty"] = new(PlanSettingsCatalog.PartitionKeyField, "needs the name of a field", Set(("Workload.PartitionKey.Strategy", "FieldValue"))),
        ["Key field: the key itself"] = new(PlanSettingsCatalog.PartitionKeyField, "holds the chosen key itself", Set(("Workload.PartitionKey.Strategy", "FieldValue"), ("Workload.PartitionKey.Field", "PartitionKey"))),
        ["Key field: no such field"] = new(PlanSettingsCatalog.PartitionKeyField, "have no field", Set(("Workload.PartitionKey.Strategy", "FieldValue"), ("Workload.PartitionKey.Field", "Nowhere"))),
        ["Key count: none"] = new(PlanSettingsCatalog.PartitionKeyCount, "at least 1 key", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Workload.PartitionKey.KeyCount", "0"))),
        ["Key count: one hot key alone"] = new(PlanSettingsCatalog.PartitionKeyCount, "at least 2 keys", Set(("Workload.PartitionKey.Strategy", "HotKey"), ("Workload.PartitionKey.KeyCount", "1"))),
        ["Key count: too many"] = new(PlanSettingsCatalog.PartitionKeyCount, "keys.", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Workload.PartitionKey.KeyCount", "2000000000"))),
        ["Hot key share: above 1"] = new(PlanSettingsCatalog.HotKeyFraction, "between 0 and 1", Set(("Workload.PartitionKey.Strategy", "HotKey"), ("Workload.PartitionKey.HotKeyFraction", "2"))),
        ["Concurrency: none"] = new(PlanSettingsCatalog.Concurrency, "Must be at least 1.", Set(("Load.Concurrency", "0"))),
        ["Concurrency: too many"] = new(PlanSettingsCatalog.Concurrency, "At most 10,000", Set(("Load.Concurrency", "10001"))),
        ["Batch size: none"] = new(PlanSettingsCatalog.BatchSize, "Must be at least 1", Set(("Load.BatchSize", "0"))),
        ["Batch size: beyond the target's"] = new(PlanSettingsCatalog.BatchSize, "", Set(("Workload.PartitionKey.Strategy", "FixedKeys"), ("Load.BatchSize", "1000"))),
        ["Batch size: keys not shared"] = new(PlanSettingsCatalog.BatchSize, "share a partition key", Set(("Load.BatchSize", "2"))),
        ["Rate: open loop without one"] = new(PlanSettingsCatalog.RatePerSecond, "needs a rate above 0", Set(("Load.Model", OpenLoop))),
        ["Rate: too slow"] = new(PlanSettingsCatalog.RatePerSecond, "At least 0.1 requests per second", Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "0.01"))),
        ["Rate: too fast"] = new(PlanSettingsCatalog.RatePerSecond, "At most 1,000,000", Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "2000000"))),
        ["Rate: closed loop"] = new(PlanSettingsCatalog.RatePerSecond, "applies to the open loop only",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Agents: too many"] = new(PlanSettingsCatalog.Agents, "Between 1 and 64", Set(("Load.Agents", "65"))) { Start = Spread() },
        ["Agents: fewer workers"] = new(PlanSettingsCatalog.Agents, "at least one worker", Set(("Load.Agents", "20"))) { Start = Spread() },
        ["Agents: unbounded"] = new(PlanSettingsCatalog.Agents, "unbounded model", Set(("Stop.TotalDocuments", "1000"), ("Load.Model", nameof(LoadModel.Unbounded)))) { Start = Spread() },
        ["Stages: unbounded"] = new(PlanSettingsCatalog.Stages, "no level to change",
            Set(("Stop.TotalDocuments", "1000"), (AddStage, true), ("Load.Model", nameof(LoadModel.Unbounded))))
        { ManySettings = true },
        ["Stages: several agents"] = new(PlanSettingsCatalog.Stages, "Stages run on one agent", Set((AddStage, true))) { Start = Spread(), ManySettings = true },
        ["Stages: longer than a week"] = new(PlanSettingsCatalog.Stages, "together last at most",
            Set((AddStage, true), (AddStage, true), ("Load.Stages[0].DurationSeconds", "604800"), ("Load.Stages[1].DurationSeconds", "604800"))) { ManySettings = true },
        ["Stage seconds: none"] = new(PlanSettingsCatalog.StageDurationSeconds, "Whole seconds", Set((AddStage, true), ("Load.Stages[0].DurationSeconds", "0"))) { At = "Load.Stages[0].DurationSeconds" },
        ["Stage workers: none"] = new(PlanSettingsCatalog.StageConcurrency, "Must be at least 1.", Set((AddStage, true), ("Load.Stages[0].Concurrency", "0"))) { At = "Load.Stages[0].Concurrency" },
        ["Stage workers: too many"] = new(PlanSettingsCatalog.StageConcurrency, "At most 10,000", Set((AddStage, true), (AddStage, true), ("Load.Stages[1].Concurrency", "10001"))) { At = "Load.Stages[1].Concurrency" },
        ["Stage rate: none"] = new(PlanSettingsCatalog.StageRatePerSecond, "needs a rate above 0",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), (AddStage, true), ("Load.Stages[0].RatePerSecond", ""))) { At = "Load.Stages[0].RatePerSecond" },
        ["Stage rate: too slow"] = new(PlanSettingsCatalog.StageRatePerSecond, "Between 0.1 and 1,000,000",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), (AddStage, true), ("Load.Stages[0].RatePerSecond", "0.01"))) { At = "Load.Stages[0].RatePerSecond" },
        ["Retries: too many"] = new(PlanSettingsCatalog.MaxRetries, "Between 0 and 100.", Set(("Load.Throttling.MaxRetries", "101"))),
        ["Back-off: none"] = new(PlanSettingsCatalog.BaseDelayMs, "Above 0 and at most 60,000 ms.", Set(("Load.Throttling.BaseDelayMs", "0"))),
        ["Total documents: none"] = new(PlanSettingsCatalog.TotalDocuments, "Must be at least 1.", Set(("Stop.TotalDocuments", "0"))),
        ["Total documents: too many"] = new(PlanSettingsCatalog.TotalDocuments, "At most 1,000,000,000,000 documents.", Set(("Stop.TotalDocuments", "2000000000000"))),
        ["Total documents: unbounded without"] = new(PlanSettingsCatalog.TotalDocuments, "give a total of at most 1,000,000", Set(("Load.Model", nameof(LoadModel.Unbounded)))),
        ["Per worker: none"] = new(PlanSettingsCatalog.DocumentsPerWorker, "Must be at least 1.", Set(("Stop.DocumentsPerWorker", "0"))),
        ["Per worker: too many in all"] = new(PlanSettingsCatalog.DocumentsPerWorker, "Workers × documents per worker", Set(("Stop.DocumentsPerWorker", "200000000000"))),
        ["Per worker: open loop"] = new(PlanSettingsCatalog.DocumentsPerWorker, "applies to the closed loop",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Stop.DocumentsPerWorker", "10"))),
        ["Per worker: and a total"] = new(PlanSettingsCatalog.DocumentsPerWorker, "not both", Set(("Stop.TotalDocuments", "10"), ("Stop.DocumentsPerWorker", "10"))),
        ["Per worker: with stages"] = new(PlanSettingsCatalog.DocumentsPerWorker, "give a total instead", Set((AddStage, true), ("Stop.DocumentsPerWorker", "10"))),
        ["Duration: none"] = new(PlanSettingsCatalog.DurationSeconds, "Above 0 and at most 604,800 seconds", Set(("Stop.DurationSeconds", "0"))),
        ["Stop: nothing says when"] = new(PlanSettingsCatalog.Stop, "Say when to stop", Set(("Stop.DurationSeconds", ""))) { ManySettings = true },
        ["Auto-stop: no share"] = new(PlanSettingsCatalog.AutoStop, "or remove the rule", Set(("Stop.AutoStop", true))),
        ["Auto-stop throttled: above all"] = new(PlanSettingsCatalog.AutoStopThrottled, "A share between 0 and 1", Set(("Stop.AutoStop", true), ("Stop.AutoStop.ThrottledPercent", "200"))),
        ["Auto-stop errors: above all"] = new(PlanSettingsCatalog.AutoStopErrors, "A share between 0 and 1", Set(("Stop.AutoStop", true), ("Stop.AutoStop.ErrorPercent", "200"))),
        ["Auto-stop unsent: above all"] = new(PlanSettingsCatalog.AutoStopDropped, "A share between 0 and 1",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Stop.AutoStop", true), ("Stop.AutoStop.DroppedPercent", "200"))),
        ["Auto-stop unsent: closed loop"] = new(PlanSettingsCatalog.AutoStopDropped, "only in the open loop",
            Set(("Load.Model", OpenLoop), ("Stop.AutoStop", true), ("Stop.AutoStop.DroppedPercent", "5"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Auto-stop window: none"] = new(PlanSettingsCatalog.AutoStopWindowSeconds, "Between 1 and 3,600 seconds.",
            Set(("Stop.AutoStop", true), ("Stop.AutoStop.ErrorPercent", "5"), ("Stop.AutoStop.WindowSeconds", "0"))),
        ["Throughput: none"] = new(PlanSettingsCatalog.MinThroughput, "Must be above 0 inserts/s", Set(("Thresholds.MinThroughput", "0"))),
        ["P99: none"] = new(PlanSettingsCatalog.MaxP99LatencyMs, "Must be above 0 ms", Set(("Thresholds.MaxP99LatencyMs", "0"))),
        ["Throttled: above all"] = new(PlanSettingsCatalog.MaxThrottledPercent, "A percentage between 0 and 100.", Set(("Thresholds.MaxThrottledPercent", "101"))),
        ["Unsent: above all"] = new(PlanSettingsCatalog.MaxDroppedPercent, "A percentage between 0 and 100.",
            Set(("Load.Model", OpenLoop), ("Load.RatePerSecond", "100"), ("Thresholds.MaxDroppedPercent", "101"))),
        ["Unsent: closed loop"] = new(PlanSettingsCatalog.MaxDroppedPercent, "only in the open loop",
            Set(("Load.Model", OpenLoop), ("Thresholds.MaxDroppedPercent", "5"), ("Load.Model", nameof(LoadModel.ClosedLoop)))),
        ["Baseline: not a run"] = new(PlanSettingsCatalog.BaselineRunId, "Not a run number.", Set(("Thresholds.BaselineRunId", "0"))),
        ["Baseline: no such run, on saving"] = new(PlanSettingsCatalog.BaselineRunId, "Run 99999 does not exist: give the number of a completed run",
            Set(("Thresholds.BaselineRunId", "99999"), ("#save-profile", true))),
        ["Share of the baseline: none"] = new(PlanSettingsCatalog.MinShareOfBaseline, "A share above 0", Set(("Thresholds.MinPercentOfBaseline", "0"))),
        ["Diagnostics threshold: negative"] = new(PlanSettingsCatalog.DiagnosticsThresholdMs, "From 0 to 3,600,000 ms", Set(("Diagnostics.ThresholdMs", "-1"))),
        ["Slowest per second: negative"] = new(PlanSettingsCatalog.DiagnosticsSlowestPerSecond, "From 0 (none)", Set(("Diagnostics.SlowestPerSecond", "-1"))),

        // The targets' rules: the kind is chosen first, then the settings that keep its other rules quiet.
        ["Simulator RU/s: too few"] = new(Target("Target.Simulator.ProvisionedRequestUnits"), "At least 400 RU/s", Set(("Target.Simulator.ProvisionedRequestUnits", "399"))),
        ["Simulator RU/s: too many"] = new(Target("Target.Simulator.ProvisionedRequestUnits"), "At most 10,000,000 RU/s.", Set(("Target.Simulator.ProvisionedRequestUnits", "10000001"))),
        ["Simulator partitions: none"] = new(Target("Target.Simulator.PhysicalPartitions"), "Between 1 and 1,000.", Set(("Target.Simulator.PhysicalPartitions", "0"))),
        ["Simulator partitions: too many RU/s each"] = new(Target("Target.Simulator.PhysicalPartitions"), "A physical partition serves at most",
            Set(("Target.Simulator.ProvisionedRequestUnits", "20000"), ("Target.Simulator.PhysicalPartitions", "1"))),
        ["Simulator latency: none"] = new(Target("Target.Simulator.MedianLatencyMs"), "Above 0 and at most 10,000 ms.", Set(("Target.Simulator.MedianLatencyMs", "0"))),
        ["Cosmos endpoint: none"] = new(Target("Target.Cosmos.Endpoint"), "Give the account endpoint", Set(Kind(nameof(TargetKind.CosmosSql)))),
        ["Cosmos endpoint: not a URL"] = new(Target("Target.Cosmos.Endpoint"), "Not an absolute URL", Set(Kind(nameof(TargetKind.CosmosSql)), (CosmosEndpoint, "not a url"))),
        ["Cosmos endpoint: with a password"] = new(Target("Target.Cosmos.Endpoint"), "carries a user name or password",
            Set([.. Cosmos, (CosmosEndpoint, "https://user:pw@acme.documents.azure.com:443/")])),
        ["Cosmos certificate: remote endpoint"] = new(Target("Target.Cosmos.AcceptAnyServerCertificate"), "Only for an endpoint on this machine",
            Set([.. Cosmos, ("Target.Cosmos.AcceptAnyServerCertificate", true)])),
        ["Cosmos key: unnamed"] = new(Target("Target.Cosmos.KeySecret"), "Name the secret that holds the account key.",
            Set(Kind(nameof(TargetKind.CosmosSql)), (CosmosEndpoint, AcmeEndpoint), ("Target.Cosmos.KeySecret", ""))),
        ["Cosmos key: name too long"] = new(Target("Target.Cosmos.KeySecret"), "At most 200 characters.",
            Set(Kind(nameof(TargetKind.CosmosSql)), (CosmosEndpoint, AcmeEndpoint), ("Target.Cosmos.KeySecret", new string('K', 201)))),
        ["Cosmos database: none"] = new(Target("Target.Cosmos.Database"), "Give a database name.", Set([.. Cosmos, ("Target.Cosmos.Database", "")])),
        ["Cosmos database: too long"] = new(Target("Target.Cosmos.Database"), "At most 255 characters.", Set([.. Cosmos, ("Target.Cosmos.Database", new string('d', 256))])),
        ["Cosmos database: a character the service refuses"] = new(Target("Target.Cosmos.Database"), "A database name may not contain /, \\, # or ?",
            Set([.. Cosmos, ("Target.Cosmos.Database", "../../x")])),
        ["Cosmos container: none"] = new(Target("Target.Cosmos.Container"), "Give a container name.", Set([.. Cosmos, ("Target.Cosmos.Container", "")])),
        ["Cosmos container: too long"] = new(Target("Target.Cosmos.Container"), "At most 255 characters.", Set([.. Cosmos, ("Target.Cosmos.Container", new string('c', 256))])),
        ["Cosmos container: a character the service refuses"] = new(Target("Target.Cosmos.Container"), "A container name may not contain /, \\, # or ?",
            Set([.. Cosmos, ("Target.Cosmos.Container", "a/b#?")])),
        ["Cosmos key path: no slash"] = new(Target("Target.Cosmos.PartitionKeyPath"), "A path such as /PartitionKey.", Set([.. Cosmos, ("Target.Cosmos.PartitionKeyPath", "PartitionKey")])),
        ["Cosmos key path: empty part"] = new(Target("Target.Cosmos.PartitionKeyPath"), "Every part of the path needs a property name",
            Set([.. Cosmos, ("Target.Cosmos.PartitionKeyPath", "/address//city")])),
        ["Cosmos gateway connections: none"] = new(Target("Target.Cosmos.GatewayMaxConnections"), "Between 1 and 10,000.",
            Set([.. Cosmos, ("Target.Cosmos.ConnectionMode", nameof(CosmosConnectionMode.Gateway)), ("Target.Cosmos.GatewayMaxConnections", "0")])),
        ["Cosmos RU/s: too few"] = new(Target("Target.Cosmos.RequestUnits"), "At least 400 RU/s", Set([.. Cosmos, ("Target.Cosmos.RequestUnits", "300")])),
        ["Cosmos RU/s: too many"] = new(Target("Target.Cosmos.RequestUnits"), "At most 1,000,000 RU/s", Set([.. Cosmos, ("Target.Cosmos.RequestUnits", "2000000")])),
        ["Cosmos RU/s: autoscale below 1,000"] = new(Target("Target.Cosmos.RequestUnits"), "Autoscale needs a maximum of at least 1,000 RU/s.",
            Set([.. Cosmos, ("Target.Cosmos.Throughput", nameof(ThroughputMode.Autoscale)), ("Target.Cosmos.RequestUnits", "500")])),
        ["Cosmos RU/s: not in steps of 100"] = new(Target("Target.Cosmos.RequestUnits"), "RU/s come in steps of 100.", Set([.. Cosmos, ("Target.Cosmos.RequestUnits", "450")])),
        ["Cosmos excluded paths: none"] = new(Target("Target.Cosmos.ExcludedPaths"), "List at least one path to exclude",
            Set([.. Cosmos, ("Target.Cosmos.Indexing", nameof(IndexingMode.ExcludedPaths))])),
        ["Cosmos excluded paths: not from the root"] = new(Target("Target.Cosmos.ExcludedPaths"), "Path 2 of the list does not start with /",
            Set([.. Cosmos, ("Target.Cosmos.Indexing", nameof(IndexingMode.ExcludedPaths)), ("Target.Cosmos.ExcludedPaths", "/payload/*\nno-slash")])),
        ["Cosmos excluded paths: too many"] = new(Target("Target.Cosmos.ExcludedPaths"), "At most 100 paths",
            Set([.. Cosmos, ("Target.Cosmos.Indexing", nameof(IndexingMode.ExcludedPaths)), ("Target.Cosmos.ExcludedPaths", string.Join('\n', Enumerable.Range(0, 101).Select(i => $"/p{i}/?")))])),
        ["Table connection string: unnamed"] = new(Target("Target.Tables.ConnectionStringSecret"), "Name the secret that holds the connection string.",
            Set(Kind(nameof(TargetKind.TableStorage)), ("Target.Tables.ConnectionStringSecret", ""))),
        ["Table name: too short"] = new(Target("Target.Tables.TableName"), "3–63 letters and digits", Set(Kind(nameof(TargetKind.TableStorage)), ("Target.Tables.TableName", "ab"))),
        ["Blob connection string: unnamed"] = new(Target("Target.Blobs.ConnectionStringSecret"), "Name the secret that holds the connection string.",
            Set(Kind(nameof(TargetKind.BlobStorage)), ("Target.Blobs.ConnectionStringSecret", ""))),
        ["Blob container: not a name"] = new(Target("Target.Blobs.ContainerName"), StorageRequests.NameRule, Set(Kind(nameof(TargetKind.BlobStorage)), ("Target.Blobs.ContainerName", "A"))),
        ["Queue connection string: unnamed"] = new(Target("Target.Queues.ConnectionStringSecret"), "Name the secret that holds the connection string.",
            Set(Kind(nameof(TargetKind.QueueStorage)), ("Target.Queues.ConnectionStringSecret", ""))),
        ["Queue name: not a name"] = new(Target("Target.Queues.QueueName"), StorageRequests.NameRule, Set(Kind(nameof(TargetKind.QueueStorage)), ("Target.Queues.QueueName", "A"))),
        ["Redis host: none"] = new(Target("Target.Redis.Host"), "Give the cache's host name", Set(Kind(nameof(TargetKind.Redis)))),
        ["Redis host: not a host"] = new(Target("Target.Redis.Host"), "A host name or IP address of at most 253 characters",
            Set(Kind(nameof(TargetKind.Redis)), ("Target.Redis.Host", "my cache"))),
        ["Redis host: IPv6 without brackets"] = new(Target("Target.Redis.Host"), "Put an IPv6 address in square brackets",
            Set(Kind(nameof(TargetKind.Redis)), ("Target.Redis.Host", "::1"))),
        ["Redis port: none"] = new(Target("Target.Redis.Port"), "Between 1 and 65,535 (Azure: 6380 with TLS).", Set([.. Redis, ("Target.Redis.Port", "0")])),
        ["Redis port: too high"] = new(Target("Target.Redis.Port"), "Between 1 and 65,535 (Azure: 6380 with TLS).", Set([.. Redis, ("Target.Redis.Port", "65536")])),
        ["Redis TLS: off for a remote cache"] = new(Target("Target.Redis.UseTls"), "Plain Redis (no TLS) is only for a server on this machine",
            Set([.. RemoteRedis, ("Target.Redis.UseTls", false)]))
        {
            // Plain Redis to another machine breaks the installation's rule too: its allow-list refuses plain http there.
            AlsoOutlined = ["Target.Redis.Host"],
        },
        ["Redis access key: off for a remote cache"] = new(Target("Target.Redis.UseAccessKey"), "A cache on another machine needs its access key",
            Set([.. RemoteRedis, ("Target.Redis.UseAccessKey", false)])),
        ["Redis access key: unnamed"] = new(Target("Target.Redis.AccessKeySecret"), "Name the secret that holds the access key.",
            Set(Kind(nameof(TargetKind.Redis)), ("Target.Redis.Host", "localhost"), ("Target.Redis.AccessKeySecret", ""))),
        ["Redis database: beyond 15"] = new(Target("Target.Redis.Database"), "Between 0 and 15 (a clustered cache has database 0 only).", Set([.. Redis, ("Target.Redis.Database", "16")])),
        ["Redis key prefix: none"] = new(Target("Target.Redis.KeyPrefix"), "letters, digits and : _ - . /", Set([.. Redis, ("Target.Redis.KeyPrefix", "")])),
        ["Redis key prefix: a pattern"] = new(Target("Target.Redis.KeyPrefix"), "letters, digits and : _ - . /", Set([.. Redis, ("Target.Redis.KeyPrefix", "bench*")])),
        ["Redis connect timeout: too short"] = new(Target("Target.Redis.ConnectTimeoutMs"), "Between 100 and 60,000 ms.", Set([.. Redis, ("Target.Redis.ConnectTimeoutMs", "99")])),
        ["Redis certificate: remote cache"] = new(Target("Target.Redis.AcceptAnyServerCertificate"), "Only for a server on this machine",
            Set([.. RemoteRedis, ("Target.Redis.AcceptAnyServerCertificate", true)])),
    };

    private const string WebPlanRulesChoose = "Choose an uploaded CSV file";

    /// <summary>The plan's settings whose every rule the editor cannot break: a choice from a list (an enum's value that
    /// names no choice comes only from a file), a setting it has no input for, or one with no rule.</summary>
    private static readonly HashSet<SettingDescriptor> Unbreakable = new(ReferenceEqualityComparer.Instance)
    {
        PlanSettingsCatalog.TargetKind, PlanSettingsCatalog.Operation, PlanSettingsCatalog.Shape, PlanSettingsCatalog.PartitionKeyStrategy,
        PlanSettingsCatalog.LoadModel, PlanSettingsCatalog.StageRamp,
        // Profiles saved before uploads; the form offers to remove the path, and the shard is set by a shared run alone.
        PlanSettingsCatalog.CsvPath, PlanSettingsCatalog.Shard,
        PlanSettingsCatalog.Seed, PlanSettingsCatalog.SharedBackoff,
    };

    /// <summary>The target settings whose every rule the editor cannot break: a choice from a list (its only rule refuses a
    /// value that names no choice, which comes only from a file), and a setting with no rule (a flag, the model's seed).</summary>
    private static readonly HashSet<string> UnbreakableTargetSettings = new(StringComparer.Ordinal)
    {
        // Choices.
        "Target.Simulator.Indexing", "Target.Cosmos.Indexing", "Target.Cosmos.Throughput", "Target.Cosmos.ConnectionMode", "Target.Cosmos.ConsistencyLevel",
        // No rule: any value is a setting.
        "Target.Simulator.Seed", "Target.Cosmos.CreateIfMissing", "Target.Cosmos.Bulk", "Target.Cosmos.ContentResponseOnWrite", "Target.Cosmos.LimitToEndpoint",
        "Target.Tables.CreateIfMissing", "Target.Blobs.CreateIfMissing", "Target.Queues.CreateIfMissing", "Target.Redis.ProfileCommands",
    };

    public static TheoryData<string> RuleNames() => [.. Rules.Keys];

    [Fact]
    public void Rules_CoverEverySettingOfThePlan_ThatTheEditorCanBreak()
    {
        var covered = Rules.Values.Select(r => r.Setting).ToHashSet(ReferenceEqualityComparer.Instance);
        var missing = PlanSettingsCatalog.Plan.Where(s => !covered.Contains(s) && !Unbreakable.Contains(s)).Select(s => s.Path).ToList();

        Assert.Empty(missing);
    }

    [Fact]
    public void Rules_CoverEveryTargetsSettings_ThatTheEditorCanBreak()
    {
        var covered = Rules.Values.Select(r => r.Setting.Path).ToHashSet(StringComparer.Ordinal);
        var settings = TargetRegistry.All.SelectMany(m => m.Fields).Select(SettingDescriptor.ForTarget).Select(d => d.Path).Distinct(StringComparer.Ordinal).ToList();
        var missing = settings.Where(path => !covered.Contains(path) && !UnbreakableTargetSettings.Contains(path)).ToList();

        Assert.Empty(missing);
        // The list names settings only, and none a rule here breaks.
        Assert.Empty(UnbreakableTargetSettings.Except(settings, StringComparer.Ordinal));
        Assert.Empty(UnbreakableTargetSettings.Intersect(covered, StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(RuleNames))]
    public async Task Form_BrokenRule_OutlinesExactlyItsInput_AndShowsItsMessageBesideIt(string rule)
    {
        var broken = Rules[rule];
        await using var context = new BenchWebComponentContext();
        long? id = broken.Start is { } start
            ? await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, start, TestActors.Runner, CancellationToken.None)
            : null;
        context.StartAt(id is null ? "profiles/new" : $"profiles/{id}");
        var page = id is { } saved ? context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, saved)) : context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await broken.Break(page);

        var at = broken.At ?? broken.Setting.EditorPath;
        var outlined = page.FindAll("[aria-invalid='true']").Select(e => e.Id!).ToArray();
        var messages = page.FindAll($".validation-message[data-field='{at}']").ToList();
        Assert.Contains(messages, m => m.TextContent.Contains(broken.Message, StringComparison.Ordinal));
        if (broken.ManySettings)
        {
            Assert.Empty(outlined);
            return;
        }

        Assert.Equal([at, .. broken.AlsoOutlined], outlined.Order(StringComparer.Ordinal).OrderBy(id => id != at));
        // Beside it: in the same field as the input.
        var field = page.Find(Id(at)).Closest(".field");
        Assert.NotNull(field);
        Assert.All(messages, m => Assert.Same(field, m.Closest(".field")));
    }

    [Fact]
    public async Task Form_DescriptionTooLong_OutlinesTheDescription_AndShowsItsMessageBesideIt()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id(ProfileDraft.DescriptionField)).ChangeAsync(new string('x', ProfileDraft.MaxDescriptionLength + 1));

        Assert.Equal([ProfileDraft.DescriptionField], page.FindAll("[aria-invalid='true']").Select(e => e.Id!).ToArray());
        var message = page.Find($".validation-message[data-field='{ProfileDraft.DescriptionField}']");
        Assert.Contains("At most 2,000 characters.", message.TextContent, StringComparison.Ordinal);
        Assert.Same(page.Find(Id(ProfileDraft.DescriptionField)).Closest(".field"), message.Closest(".field"));
    }

    // A profile spread over two agents, so that the editor shows its agents (outside shared mode it shows them only then).
    private static ProfileDraft Spread() => new(new RunPlan { Name = "Spread", Load = new LoadOptions { Agents = 2 } });

    private static string Id(string id) => $"[id=\"{id}\"]";
}
