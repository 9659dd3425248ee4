using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// Every setting of a plan, each declared once: the plan's own below, and each target's from its module's fields
/// (<see cref="Targets"/>). Labels, help, units and bounds come from here; validation errors carry their paths.
/// </summary>
public static class PlanSettingsCatalog
{
    public static readonly SettingDescriptor Name = SettingDescriptor.Of(p => p.Name, "Name") with { Help = "Shown in run lists and comparisons." };

    public static readonly SettingDescriptor TargetKind = SettingDescriptor.Of(p => p.Target.Kind, "Target") with
    {
        Help = "Where the documents go: a service, the simulator, or a no-op that measures the client alone.",
    };

    public static readonly SettingDescriptor Operation = SettingDescriptor.Of(p => p.Target.Operation, "Write operation") with
    {
        EditorLabel = "Write",
        Help = "Create fails on an existing id (409, counted as an error); upsert overwrites.",
    };

    public static readonly SettingDescriptor Shape = SettingDescriptor.Of(p => p.Workload.Shape, "Document shape") with
    {
        Help = "Small DTO ≈ 150 B, Performance data ≈ 200 B, Bulk record ≈ 320 B, Flight ≈ 1.1 KB (50 BTS columns), your JSON template, or a CSV file.",
    };

    public static readonly SettingDescriptor Template = SettingDescriptor.Of(p => p.Workload.Template, "Template") with
    {
        AppliesWhen = p => p.Workload.Shape == Workloads.DocumentShape.JsonTemplate,
        EditorLabel = "JSON template",
        Help = "Placeholders: {{guid}}, {{seq}}, {{int:1:100}}, {{text:20}}, {{pick:a|b}}, {{now}}.",
    };

    public static readonly SettingDescriptor TargetSizeBytes = SettingDescriptor.Of(p => p.Workload.TargetSizeBytes, "Document size (bytes)") with
    {
        Unit = "bytes",
        Help = "Documents are padded to this size. Empty: no padding. Flights padded to 1,725 B match the seed loader.",
        Min = 0,
        MinExclusive = true,
        Max = Workloads.DocumentSourceFactory.MaxTargetSizeBytes,
    };

    public static readonly SettingDescriptor CsvPath = SettingDescriptor.Of(p => p.Workload.CsvPath, "CSV file") with
    {
        AppliesWhen = p => p.Workload.Shape == Workloads.DocumentShape.CsvFile,
        EditorLabel = "Server path (from an older profile)",
        Help = "Runs from the dashboard read uploaded files only; choose one instead.",
    };

    public static readonly SettingDescriptor CsvFileId = SettingDescriptor.Of(p => p.Workload.CsvFileId, "Csv file id") with
    {
        AppliesWhen = p => p.Workload.Shape == Workloads.DocumentShape.CsvFile,
        EditorLabel = "CSV file",
        Help = "A file uploaded under Files (e.g. a BTS on-time file); one document per row, read as a stream.",
    };

    public static readonly SettingDescriptor Seed = SettingDescriptor.Of(p => p.Workload.Seed, "Data seed") with
    {
        EditorLabel = "Random seed",
        Help = "The same seed generates the same documents.",
    };

    public static readonly SettingDescriptor Shard = SettingDescriptor.Of(p => p.Workload.Shard, "Shard");

    public static readonly SettingDescriptor PartitionKeyStrategy = SettingDescriptor.Of(p => p.Workload.PartitionKey!.Strategy, "Partition key strategy") with
    {
        EditorLabel = "Partition key",
        Help = "A new GUID per document spreads load; a hot key shows what a skewed key costs.",
    };

    public static readonly SettingDescriptor PartitionKeyField = SettingDescriptor.Of(p => p.Workload.PartitionKey!.Field, "Partition key field") with
    {
        AppliesWhen = p => PartitionKeyOf(p) == Workloads.PartitionKeyStrategy.FieldValue,
        EditorLabel = "Key field",
        Help = "The document field whose value is the key, e.g. Origin.",
    };

    public static readonly SettingDescriptor PartitionKeyCount = SettingDescriptor.Of(p => p.Workload.PartitionKey!.KeyCount, "Partition key count") with
    {
        AppliesWhen = p => PartitionKeyOf(p) is Workloads.PartitionKeyStrategy.FixedKeys or Workloads.PartitionKeyStrategy.HotKey,
        EditorLabel = "Number of keys",
        Min = 1,
        Max = Workloads.WorkloadValidator.MaxKeyCount,
    };

    public static readonly SettingDescriptor HotKeyFraction = SettingDescriptor.Of(p => p.Workload.PartitionKey!.HotKeyFraction, "Hot key share") with
    {
        AppliesWhen = p => PartitionKeyOf(p) == Workloads.PartitionKeyStrategy.HotKey,
        EditorLabel = "Share on the hot key",
        Help = "0.8 = 80 % of documents get the same key.",
        Min = 0,
        MinExclusive = true,
        Max = 1,
        MaxExclusive = true,
    };

    public static readonly SettingDescriptor LoadModel = SettingDescriptor.Of(p => p.Load.Model, "Load model") with
    {
        Help = "Closed loop: N workers, each waits for its reply. Open loop: a fixed rate, latency from the intended start; a request due while as many as the concurrency are outstanding is not sent, and counted as unsent. Waves: N at once, then wait for all. Unbounded: every write at once.",
    };

    public static readonly SettingDescriptor Concurrency = SettingDescriptor.Of(p => p.Load.Concurrency, "Concurrency") with
    {
        Help = "Workers (closed loop), wave size, or the cap on requests in flight (open loop).",
        Min = 1,
        Max = 10_000,
    };

    public static readonly SettingDescriptor RatePerSecond = SettingDescriptor.Of(p => p.Load.RatePerSecond, "Rate (requests/s)") with
    {
        AppliesWhen = p => p.Load.Model == Running.LoadModel.OpenLoop,
        Unit = "requests/s",
        Help = "Open loop only.",
        Min = RunPlan.MinRatePerSecond,
        Max = RunPlan.MaxRatePerSecond,
    };

    public static readonly SettingDescriptor BatchSize = SettingDescriptor.Of(p => p.Load.BatchSize, "Batch size") with
    {
        AppliesWhen = p => p.Target.Kind.Module.MaxBatchSize > 1,
        Help = "1 = point writes. Tables: up to 100 entities sharing a partition key per transaction.",
        Min = 1,
    };

    public static readonly SettingDescriptor Agents = SettingDescriptor.Of(p => p.Load.Agents, "Agents") with
    {
        Help = "Spread the load over this many agents (see Agents): each runs its share of the workers, the rate and the documents, from a common start. 0: every agent alive at launch.",
        Min = LoadOptions.AllAgents,
        Max = Workloads.WorkloadShard.MaxCount,
    };

    /// <summary>The stages as a whole (how many, with which model, how long together).</summary>
    public static readonly SettingDescriptor Stages = SettingDescriptor.Of(p => p.Load.Stages, "Stages");

    public static readonly SettingDescriptor StageDurationSeconds = SettingDescriptor.Of(p => p.Load.Stages[0].DurationSeconds, "Duration seconds") with
    {
        EditorLabel = "Stage seconds",
        Unit = "s",
        Min = 1,
        Max = RunPlan.MaxDurationSeconds,
    };

    public static readonly SettingDescriptor StageConcurrency = SettingDescriptor.Of(p => p.Load.Stages[0].Concurrency, "Concurrency") with
    {
        EditorLabel = "Workers",
        Min = 1,
        Max = 10_000,
    };

    public static readonly SettingDescriptor StageRatePerSecond = SettingDescriptor.Of(p => p.Load.Stages[0].RatePerSecond, "Rate per second") with
    {
        EditorLabel = "Rate (requests/s)",
        Unit = "requests/s",
        Min = RunPlan.MinRatePerSecond,
        Max = RunPlan.MaxRatePerSecond,
    };

    public static readonly SettingDescriptor StageRamp = SettingDescriptor.Of(p => p.Load.Stages[0].Ramp, "Ramp");

    public static readonly SettingDescriptor MaxRetries = SettingDescriptor.Of(p => p.Load.Throttling.MaxRetries, "Retries of a throttled request") with
    {
        Section = SettingSection.Client,
        EditorLabel = "Retries on throttling",
        Help = "Per write, honouring retry-after. Every throttled response is counted, retried or not.",
        Min = 0,
        Max = 100,
    };

    public static readonly SettingDescriptor SharedBackoff = SettingDescriptor.Of(p => p.Load.Throttling.SharedBackoff, "Shared back-off") with
    {
        Section = SettingSection.Client,
        Help = "One 429 pauses all workers until its retry-after, instead of each retrying on its own.",
    };

    public static readonly SettingDescriptor BaseDelayMs = SettingDescriptor.Of(p => p.Load.Throttling.BaseDelayMs, "Back-off base delay (ms)") with
    {
        Section = SettingSection.Client,
        EditorLabel = "Back-off without retry-after (ms)",
        Help = "First delay when the service gives none; doubles per retry.",
        Unit = "ms",
        Min = 0,
        MinExclusive = true,
        Max = 60_000,
    };

    /// <summary>When to stop, as a whole (a rule about several settings: say when).</summary>
    public static readonly SettingDescriptor Stop = SettingDescriptor.Of(p => p.Stop, "Stop");

    public static readonly SettingDescriptor TotalDocuments = SettingDescriptor.Of(p => p.Stop.TotalDocuments, "Total documents") with
    {
        Min = 1,
        Max = RunPlan.MaxDocuments,
    };

    public static readonly SettingDescriptor DocumentsPerWorker = SettingDescriptor.Of(p => p.Stop.DocumentsPerWorker, "Documents per worker") with
    {
        AppliesWhen = p => p.Load.Model == Running.LoadModel.ClosedLoop,
        Help = "Closed loop: workers × this many (e.g. 10 × 100,000).",
        Min = 1,
    };

    public static readonly SettingDescriptor DurationSeconds = SettingDescriptor.Of(p => p.Stop.DurationSeconds, "Duration (s)") with
    {
        Unit = "s",
        Min = 0,
        MinExclusive = true,
        Max = RunPlan.MaxDurationSeconds,
    };

    public static readonly SettingDescriptor AutoStop = SettingDescriptor.Of(p => p.Stop.AutoStop, "Auto stop") with
    {
        EditorLabel = "Auto-stop",
        Help = "Stop early when too many responses are throttled or fail (or, in the open loop, too many requests due go unsent).",
    };

    public static readonly SettingDescriptor AutoStopThrottled = SettingDescriptor.Of(p => p.Stop.AutoStop!.ThrottledFractionAbove, "Auto-stop: throttled share above") with
    {
        EditorLabel = "…when throttled above (%)",
        EditorPath = "Stop.AutoStop.ThrottledPercent",
        EditorScale = 100,
        Min = 0,
        Max = 1,
    };

    public static readonly SettingDescriptor AutoStopErrors = SettingDescriptor.Of(p => p.Stop.AutoStop!.ErrorFractionAbove, "Auto-stop: error share above") with
    {
        EditorLabel = "…or errors above (%)",
        EditorPath = "Stop.AutoStop.ErrorPercent",
        EditorScale = 100,
        Min = 0,
        Max = 1,
    };

    public static readonly SettingDescriptor AutoStopDropped = SettingDescriptor.Of(p => p.Stop.AutoStop!.DroppedFractionAbove, "Dropped fraction above") with
    {
        EditorLabel = "…or unsent above (%)",
        EditorPath = "Stop.AutoStop.DroppedPercent",
        EditorScale = 100,
        Help = "Requests due on the schedule but not sent (as many outstanding as the concurrency allows).",
        Min = 0,
        Max = 1,
    };

    public static readonly SettingDescriptor AutoStopWindowSeconds = SettingDescriptor.Of(p => p.Stop.AutoStop!.WindowSeconds, "Auto-stop window (s)") with
    {
        EditorLabel = "…over the last (s)",
        Unit = "s",
        Min = 1,
        Max = 3_600,
    };

    public static readonly SettingDescriptor MinThroughput = SettingDescriptor.Of(p => p.Thresholds!.MinThroughput, "Min throughput") with
    {
        EditorLabel = "Throughput at least (inserts/s)",
        Help = "The run's average: ok ÷ elapsed.",
        Unit = "inserts/s",
        Min = 0,
        MinExclusive = true,
        Max = 1_000_000_000,
    };

    public static readonly SettingDescriptor MaxP99LatencyMs = SettingDescriptor.Of(p => p.Thresholds!.MaxP99LatencyMs, "Max P99 latency (ms)") with
    {
        EditorLabel = "P99 latency at most (ms)",
        Help = "Over all successful operations (failed and throttled attempts excluded).",
        Unit = "ms",
        Min = 0,
        MinExclusive = true,
        Max = 3_600_000,
    };

    public static readonly SettingDescriptor MaxThrottledPercent = SettingDescriptor.Of(p => p.Thresholds!.MaxThrottledPercent, "Max throttled percent") with
    {
        EditorLabel = "Throttled at most (%)",
        Help = "Share of responses that were 429/503.",
        Unit = "%",
        Min = 0,
        Max = 100,
    };

    public static readonly SettingDescriptor MaxDroppedPercent = SettingDescriptor.Of(p => p.Thresholds!.MaxDroppedPercent, "Max dropped percent") with
    {
        EditorLabel = "Unsent at most (%)",
        Help = "Open loop: share of the requests due on the schedule that were not sent.",
        Unit = "%",
        Min = 0,
        Max = 100,
    };

    public static readonly SettingDescriptor BaselineRunId = SettingDescriptor.Of(p => p.Thresholds!.BaselineRunId, "Baseline run") with
    {
        EditorLabel = "Baseline run #",
        Help = "A run to compare the throughput with.",
        Min = 1,
    };

    public static readonly SettingDescriptor MinShareOfBaseline = SettingDescriptor.Of(p => p.Thresholds!.MinShareOfBaseline, "Min share of baseline") with
    {
        EditorLabel = "…at least this % of its throughput",
        EditorPath = "Thresholds.MinPercentOfBaseline",
        EditorScale = 100,
        Help = "e.g. 95.",
        Min = 0,
        MinExclusive = true,
        Max = 10,
    };

    public static readonly SettingDescriptor DiagnosticsThresholdMs = SettingDescriptor.Of(p => p.Diagnostics!.ThresholdMs, "Threshold ms") with
    {
        EditorLabel = "Every request slower than (ms)",
        Help = "Empty: no threshold; 0: every request, within the bounds.",
        Unit = "ms",
        Min = 0,
        Max = Diagnostics.DiagnosticsOptions.MaxThresholdMs,
    };

    public static readonly SettingDescriptor DiagnosticsSlowestPerSecond = SettingDescriptor.Of(p => p.Diagnostics!.SlowestPerSecond, "Slowest per second") with
    {
        EditorLabel = "The slowest of every second",
        Help = "How many (0: none; default 1).",
        Min = 0,
        Max = Diagnostics.DiagnosticsOptions.MaxPerSecond,
    };

    // The partition key strategy a run uses: the plan's, or its shape's default.
    private static Workloads.PartitionKeyStrategy PartitionKeyOf(RunPlan plan) =>
        plan.Workload.PartitionKey?.Strategy ?? Workloads.DocumentSourceFactory.DefaultPartitionKeyStrategy(plan.Workload.Shape);

    /// <summary>The plan's own settings (not a target's), in the editor's order.</summary>
    public static IReadOnlyList<SettingDescriptor> Plan { get; } =
    [
        Name, TargetKind, Operation,
        Shape, Template, TargetSizeBytes, CsvPath, CsvFileId, Seed, Shard, PartitionKeyStrategy, PartitionKeyField, PartitionKeyCount, HotKeyFraction,
        LoadModel, Concurrency, RatePerSecond, BatchSize, Agents, Stages, StageDurationSeconds, StageConcurrency, StageRatePerSecond, StageRamp,
        MaxRetries, SharedBackoff, BaseDelayMs,
        Stop, TotalDocuments, DocumentsPerWorker, DurationSeconds, AutoStop, AutoStopThrottled, AutoStopErrors, AutoStopDropped, AutoStopWindowSeconds,
        MinThroughput, MaxP99LatencyMs, MaxThrottledPercent, MaxDroppedPercent, BaselineRunId, MinShareOfBaseline,
        DiagnosticsThresholdMs, DiagnosticsSlowestPerSecond,
    ];

    /// <summary>Every registered target's settings (two kinds' fields of one path are one setting).</summary>
    public static IReadOnlyList<SettingDescriptor> Targets { get; } =
        [.. TargetRegistry.All.SelectMany(m => m.Fields).DistinctBy(f => f.Path).Select(SettingDescriptor.ForTarget)];

    /// <summary>Every setting: the plan's, then the targets'.</summary>
    public static IReadOnlyList<SettingDescriptor> All { get; } = [.. Plan, .. Targets];

    private static readonly Dictionary<string, SettingDescriptor> ByJsonPath = All.ToDictionary(d => d.JsonPath, StringComparer.Ordinal);

    private static readonly Dictionary<string, SettingDescriptor> ByEditorPath = Plan.Where(d => d.EditorPath != d.Path).ToDictionary(d => d.EditorPath, StringComparer.Ordinal);

    /// <summary>The setting at a field path (<c>Load.Concurrency</c>, <c>Load.Stages[2].Ramp</c>), a flattened JSON path
    /// (<c>load.concurrency</c>) or an editor path (<c>Stop.AutoStop.ErrorPercent</c>); null when no setting is there
    /// (the client environment, a run's metadata).</summary>
    public static SettingDescriptor? Find(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var plain = SettingDescriptor.WithoutIndices(path);
        return ByEditorPath.GetValueOrDefault(plain) ?? ByJsonPath.GetValueOrDefault(SettingLabels.FlatPath(plain));
    }
}
