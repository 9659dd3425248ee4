using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using BenchEngine.Diagnostics;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Running;

/// <summary>
/// Everything a run needs, immutable and serialisable: what a profile stores and what a run snapshots.
/// Secrets are named, never held (<see cref="CosmosOptions.KeySecret"/>, <see cref="TableOptions.ConnectionStringSecret"/>).
/// </summary>
public sealed record RunPlan : IJsonOnDeserialized
{
    /// <summary>Largest item Cosmos DB accepts.</summary>
    public const int MaxDocumentBytes = 2 * 1024 * 1024;

    /// <summary>Largest entity-group transaction Tables accept.</summary>
    public const int MaxTableBatch = 100;

    /// <summary>How plans (and what the app stores beside them) are written and read. A plan's target is written with its own
    /// kind's section only (<see cref="TargetSectionsJson"/>); a plan with every kind's section still reads.</summary>
    public static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web)
    {
        TypeInfoResolver = new DefaultJsonTypeInfoResolver { Modifiers = { TargetSectionsJson.WriteOwnSectionOnly } },
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        AllowTrailingCommas = true,
        // A null for a setting that cannot be null ("target": null) is a bad document, reported with its path.
        RespectNullableAnnotations = true,
        ReadCommentHandling = JsonCommentHandling.Skip,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
        // A property given twice is a bad document, not "the last one wins" unnoticed.
        AllowDuplicateProperties = false,
        // A number is written as one: "5" where a number belongs is a bad document (the web defaults read it as 5). "NaN" and
        // "Infinity" are read, to be refused by the rules of the setting they are given to, on its name.
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    public string Name { get; init; } = "Untitled";

    public TargetOptions Target { get; init; } = new();

    public WorkloadOptions Workload { get; init; } = new();

    public LoadOptions Load { get; init; } = new();

    /// <summary>When to stop: by default after a minute. A plan read from JSON without a <c>stop</c> section but with stages
    /// stops when they end (their sum is the run's length).</summary>
    public StopOptions Stop { get => _stop; init => _stop = value; }

    private StopOptions _stop = DefaultStop;

    private static readonly StopOptions DefaultStop = new() { DurationSeconds = 60 };

    /// <summary>Read from JSON: a <c>stop</c> section left out beside stages is theirs, not the default minute, which would
    /// contradict their length (and be refused for it).</summary>
    void IJsonOnDeserialized.OnDeserialized()
    {
        if (ReferenceEquals(_stop, DefaultStop) && Load.Stages.Count > 0)
        {
            _stop = new StopOptions();
        }
    }

    /// <summary>Pass/fail limits, if any.</summary>
    public ThresholdOptions? Thresholds { get; init; }

    /// <summary>Which requests keep their diagnostics; null (the default): <see cref="DiagnosticsOptions.Default"/>, the
    /// slowest request of every second.</summary>
    public DiagnosticsOptions? Diagnostics { get; init; }

    /// <summary>The diagnostics settings that apply: the plan's, or the default.</summary>
    [JsonIgnore]
    public DiagnosticsOptions EffectiveDiagnostics => Diagnostics ?? DiagnosticsOptions.Default;

    /// <summary>The most characters of a target's text setting, or items of its list, whatever its kind.</summary>
    public const int MaxSettingLength = 2_048;

    /// <summary>The longest plan name.</summary>
    public const int MaxNameLength = 200;

    /// <summary>The most documents a plan may write: far beyond any run (a million a second for eleven days), and far
    /// from where counts overflow.</summary>
    public const long MaxDocuments = 1_000_000_000_000;

    /// <summary>The slowest open loop: one request every 10 s. Slower, most seconds would measure nothing.</summary>
    public const double MinRatePerSecond = 0.1;

    /// <summary>What a NaN gets, rather than the range it is not in: it is no number at all.</summary>
    public const string NotANumber = "Must be a number (NaN is not one).";

    /// <summary>The fastest open loop; beyond it the client, not the service, is measured.</summary>
    public const double MaxRatePerSecond = 1_000_000;

    /// <summary>The documents this plan writes at most, when it says (a total, or workers × per-worker, which saturates
    /// at <see cref="long.MaxValue"/> rather than overflow).</summary>
    [JsonIgnore]
    public long? DocumentLimit => Stop.TotalDocuments ?? (Stop.DocumentsPerWorker is { } perWorker ? SaturatingMultiply(perWorker, Load.Concurrency) : null);

    /// <summary>Every invalid setting, each with one clear message. Empty when the plan can run.</summary>
    /// <param name="audience">Who reads the messages: a remote reader (the default) learns only that a workload file
    /// cannot be used, not why.</param>
    public IReadOnlyList<FieldError> Validate(ValidationAudience audience = ValidationAudience.Remote) => Check(audience).Errors;

    /// <summary>Checks the plan once: the plan as checked when it can run (what <see cref="BenchmarkRunner"/> runs without
    /// checking again), or every invalid setting, each with one clear message.</summary>
    /// <param name="audience">Who reads the messages (see <see cref="Validate"/>).</param>
    public (CheckedPlan? Plan, IReadOnlyList<FieldError> Errors) Check(ValidationAudience audience = ValidationAudience.Remote)
    {
        CheckedPlan.Counted();
        var errors = Errors(audience);
        return (errors.Count == 0 ? new CheckedPlan(this, audience) : null, errors);
    }

    private List<FieldError> Errors(ValidationAudience audience)
    {
        var errors = new List<FieldError>();
        void Check(bool invalid, string field, string message)
        {
            if (invalid)
            {
                errors.Add(new FieldError(field, message));
            }
        }

        Check(PlainText.IsBlank(Name), PlanSettingsCatalog.Name.Path, string.IsNullOrWhiteSpace(Name) ? "Give the plan a name." : "Give the plan a name that shows: this one is only invisible characters.");
        Check(Name is { Length: > MaxNameLength }, PlanSettingsCatalog.Name.Path, $"At most {MaxNameLength} characters.");
        if (!PlainText.IsBlank(Name) && PlainText.Check(Name) is { } unprintable)
        {
            errors.Add(new FieldError(PlanSettingsCatalog.Name.Path, unprintable));
        }

        // JSON accepts enum values as numbers too; one that names no choice is an error, not a crash later.
        void CheckChoice<TEnum>(TEnum value, string field)
            where TEnum : struct, Enum => Check(!Enum.IsDefined(value), field, $"Not one of {string.Join(", ", Enum.GetNames<TEnum>())}.");
        Check(!TargetRegistry.IsKnown(Target.Kind), PlanSettingsCatalog.TargetKind.Path, $"Not one of {TargetRegistry.Names}.");
        CheckChoice(Target.Operation, PlanSettingsCatalog.Operation.Path);
        CheckChoice(Workload.Shape, PlanSettingsCatalog.Shape.Path);
        if (Workload.PartitionKey is { } key)
        {
            CheckChoice(key.Strategy, PlanSettingsCatalog.PartitionKeyStrategy.Path);
        }

        CheckChoice(Load.Model, PlanSettingsCatalog.LoadModel.Path);
        for (var i = 0; i < Math.Min(Load.Stages.Count, LoadOptions.MaxStages); i++)
        {
            CheckChoice(Load.Stages[i].Ramp, PlanSettingsCatalog.StageRamp.At(i));
        }
        if (errors.Count > 0 && errors.Exists(e => e.Message.StartsWith("Not one of", StringComparison.Ordinal)))
        {
            // The other rules read these choices; with one undefined they would only add noise.
            return errors;
        }

        var target = Target.Kind.Module;
        target.Validate(Target, new TargetChecks(errors));
        // The settings of the kinds this plan does not use are kept, not read: still bounded, as every input is.
        foreach (var (field, length) in TargetSettings.TextsAndLists(Target).Where(t => t.Length > MaxSettingLength).DistinctBy(t => t.Path))
        {
            Check(!errors.Exists(e => e.Field == field), field, $"At most {MaxSettingLength:N0} characters or items.");
        }
        foreach (var (field, message) in WorkloadValidator.Validate(Workload, audience, target.ItemLimit))
        {
            errors.Add(new FieldError(field, message));
        }

        // A plan's texts are shown on pages and kept in exports: a key pasted into one (a database name, an endpoint's query,
        // a document template) would be readable by every viewer. Keys are secrets, named in the secret fields.
        foreach (var (field, text) in TargetSettings.Texts(Target).Append((PlanSettingsCatalog.Template.Path, Workload.Template ?? "")))
        {
            if (!errors.Exists(e => e.Field == field) && CredentialRedaction.FindCredential(text) is { } credential)
            {
                errors.Add(new FieldError(field, PlainText.CredentialMessage(credential)));
            }
        }

        var load = Load;
        // A setting with bounds is held to those its descriptor declares (Bounds); the rules that read other settings follow.
        Bounds.CheckEachEnd(PlanSettingsCatalog.Concurrency, load.Concurrency, errors, "Must be at least 1.", "At most 10,000: beyond that the client, not the service, is measured.");
        Bounds.Check(PlanSettingsCatalog.BatchSize, load.BatchSize, errors, "Must be at least 1 (1 = point writes).");
        Check(load.BatchSize > target.MaxBatchSize, PlanSettingsCatalog.BatchSize.Path, target.BatchRefusal);
        Check(load.BatchSize > 1 && target.BatchesSharePartitionKey && (Workload.PartitionKey?.Strategy ?? DocumentSourceFactory.DefaultPartitionKeyStrategy(Workload.Shape)) is PartitionKeyStrategy.Guid or PartitionKeyStrategy.Sequence,
            PlanSettingsCatalog.BatchSize.Path, "A batch needs entities that share a partition key; with a new key per document every batch would hold one. Choose FieldValue, FixedKeys or HotKey.");
        if (load.Model == LoadModel.OpenLoop && load.Stages.Count > 0)
        {
            Check(load.RatePerSecond is not null, PlanSettingsCatalog.RatePerSecond.Path, "With stages each stage sets its rate: clear this one.");
        }
        else if (load.Model == LoadModel.OpenLoop)
        {
            var rate = load.RatePerSecond;
            Check(rate is null, PlanSettingsCatalog.RatePerSecond.Path, "An open loop needs a rate above 0 requests per second.");
            Bounds.CheckEachEnd(PlanSettingsCatalog.RatePerSecond, rate, errors,
                "At least 0.1 requests per second (one every 10 s): slower, most seconds would measure nothing.", "At most 1,000,000 requests per second.");
        }
        else
        {
            Check(load.RatePerSecond is not null, PlanSettingsCatalog.RatePerSecond.Path,
                "A rate applies to the open loop only; a closed loop sends as fast as responses return. Clear the rate or choose OpenLoop.");
        }

        Bounds.Check(PlanSettingsCatalog.Agents, load.Agents, errors, $"Between 1 and {WorkloadShard.MaxCount}, or 0 for every agent alive at launch.");
        Check(load.Agents is > 1 and <= WorkloadShard.MaxCount && load.Concurrency < load.Agents, PlanSettingsCatalog.Agents.Path, "Each agent needs at least one worker: set the concurrency to at least the number of agents.");
        Check(load.Agents > 1 && load.Model == LoadModel.Unbounded, PlanSettingsCatalog.Agents.Path, "The unbounded model starts every write at once from one client; spread a closed or open loop instead.");
        Check(Workload.Shard is { } shard && (shard.Count is < 1 or > WorkloadShard.MaxCount || shard.Index < 0 || shard.Index >= shard.Count),
            PlanSettingsCatalog.Shard.Path, $"A shard's index is from 0 to its count − 1, and the count at most {WorkloadShard.MaxCount}.");
        CheckStages(load);
        Bounds.Check(PlanSettingsCatalog.MaxRetries, load.Throttling.MaxRetries, errors, "Between 0 and 100.");
        Bounds.Check(PlanSettingsCatalog.BaseDelayMs, load.Throttling.BaseDelayMs, errors, "Above 0 and at most 60,000 ms.");

        var stop = Stop;
        Bounds.CheckEachEnd(PlanSettingsCatalog.TotalDocuments, stop.TotalDocuments, errors, "Must be at least 1.", "At most 1,000,000,000,000 documents.");
        Bounds.Check(PlanSettingsCatalog.DocumentsPerWorker, stop.DocumentsPerWorker, errors, "Must be at least 1.");
        Check(stop.DocumentsPerWorker is { } perWorker && SaturatingMultiply(perWorker, load.Concurrency) > MaxDocuments, PlanSettingsCatalog.DocumentsPerWorker.Path,
            "Workers × documents per worker must be at most 1,000,000,000,000.");
        Check(stop.DocumentsPerWorker is not null && load.Model != LoadModel.ClosedLoop, PlanSettingsCatalog.DocumentsPerWorker.Path, "Documents per worker applies to the closed loop; use a total for other models.");
        Check(stop.DocumentsPerWorker is not null && stop.TotalDocuments is not null, PlanSettingsCatalog.DocumentsPerWorker.Path, "Give a total or a count per worker, not both.");
        Bounds.Check(PlanSettingsCatalog.DurationSeconds, stop.DurationSeconds, errors, "Above 0 and at most 604,800 seconds (a week).");
        Check(load.Stages.Count > 0 && stop.DurationSeconds is { } given && given != load.StagesSeconds && load.StagesSeconds <= MaxDurationSeconds,
            PlanSettingsCatalog.DurationSeconds.Path, $"With stages the run lasts their sum ({load.StagesSeconds:N0} s): set the duration to that or leave it empty.");
        Check(load.Stages.Count > 0 && stop.DocumentsPerWorker is not null, PlanSettingsCatalog.DocumentsPerWorker.Path,
            "With stages the number of workers changes over the run: give a total instead.");
        Check(stop.TotalDocuments is null && stop.DocumentsPerWorker is null && stop.DurationSeconds is null && load.Stages.Count == 0 && Workload.Shape != DocumentShape.CsvFile,
            PlanSettingsCatalog.Stop.Path, "Say when to stop: a document count, a duration, or both.");
        Check(load.Model == LoadModel.Unbounded && stop.TotalDocuments is null or > 1_000_000, PlanSettingsCatalog.TotalDocuments.Path,
            "The unbounded model starts every write at once: give a total of at most 1,000,000.");
        if (stop.AutoStop is { } auto)
        {
            Bounds.Check(PlanSettingsCatalog.AutoStopThrottled, auto.ThrottledFractionAbove, errors, "A share between 0 and 1 (0.05 = 5 %).");
            Bounds.Check(PlanSettingsCatalog.AutoStopErrors, auto.ErrorFractionAbove, errors, "A share between 0 and 1 (0.05 = 5 %).");
            Bounds.Check(PlanSettingsCatalog.AutoStopDropped, auto.DroppedFractionAbove, errors, "A share between 0 and 1 (0.05 = 5 %).");
            Check(auto.DroppedFractionAbove is not null && load.Model != LoadModel.OpenLoop, PlanSettingsCatalog.AutoStopDropped.Path,
                "Requests go unsent only in the open loop: remove this share or choose the open loop.");
            Check(auto.ThrottledFractionAbove is null && auto.ErrorFractionAbove is null && auto.DroppedFractionAbove is null, PlanSettingsCatalog.AutoStop.Path,
                "Give a throttled, an error or an unsent share, or remove the rule.");
            Bounds.Check(PlanSettingsCatalog.AutoStopWindowSeconds, auto.WindowSeconds, errors, "Between 1 and 3,600 seconds.");
        }

        if (Thresholds is { } limits)
        {
            Bounds.Check(PlanSettingsCatalog.MinThroughput, limits.MinThroughput, errors, "Must be above 0 inserts/s (at most 1,000,000,000).");
            Bounds.Check(PlanSettingsCatalog.MaxP99LatencyMs, limits.MaxP99LatencyMs, errors, "Must be above 0 ms (at most 3,600,000, an hour).");
            Bounds.Check(PlanSettingsCatalog.MaxThrottledPercent, limits.MaxThrottledPercent, errors, "A percentage between 0 and 100.");
            Bounds.Check(PlanSettingsCatalog.MaxDroppedPercent, limits.MaxDroppedPercent, errors, "A percentage between 0 and 100.");
            Check(limits.MaxDroppedPercent is not null && load.Model != LoadModel.OpenLoop, PlanSettingsCatalog.MaxDroppedPercent.Path,
                "Requests go unsent only in the open loop: remove this limit or choose the open loop.");
            Bounds.Check(PlanSettingsCatalog.MinShareOfBaseline, limits.MinShareOfBaseline, errors, "A share above 0 and at most 10, that is above 0 % and at most 1,000 % (0.95 = 95 % of the baseline's throughput).");
            Bounds.Check(PlanSettingsCatalog.BaselineRunId, limits.BaselineRunId, errors, "Not a run number.");
        }

        if (Diagnostics is { } diagnostics)
        {
            Bounds.Check(PlanSettingsCatalog.DiagnosticsThresholdMs, diagnostics.ThresholdMs, errors,
                "From 0 to 3,600,000 ms (an hour); 0 keeps every request, within the bounds per second and per run.");
            Bounds.Check(PlanSettingsCatalog.DiagnosticsSlowestPerSecond, diagnostics.SlowestPerSecond, errors,
                $"From 0 (none) to {DiagnosticsOptions.MaxPerSecond}: a second keeps at most {DiagnosticsOptions.MaxPerSecond} requests.");
        }

        return errors;

        // Each stage is held to the rules of the constant load it stands for, on its own field path.
        void CheckStages(LoadOptions load)
        {
            var stages = load.Stages;
            if (stages.Count == 0)
            {
                return;
            }

            if (stages.Count > LoadOptions.MaxStages)
            {
                Check(true, PlanSettingsCatalog.Stages.Path, $"At most {LoadOptions.MaxStages} stages.");
                return;
            }

            Check(load.Model == LoadModel.Unbounded, PlanSettingsCatalog.Stages.Path, "The unbounded model starts every write at once: it has no level to change. Choose a closed or open loop, or remove the stages.");
            Check(load.Agents != 1, PlanSettingsCatalog.Stages.Path, "Stages run on one agent: set the agents to 1 or remove the stages.");
            for (var i = 0; i < stages.Count; i++)
            {
                var stage = stages[i];
                Bounds.Check(PlanSettingsCatalog.StageDurationSeconds, stage.DurationSeconds, errors, "Whole seconds, from 1 to 604,800 (a week).", PlanSettingsCatalog.StageDurationSeconds.At(i));
                if (load.Model == LoadModel.OpenLoop)
                {
                    Check(stage.Concurrency is not null, PlanSettingsCatalog.StageConcurrency.At(i),
                        "An open-loop stage sets a rate; the cap on outstanding requests is the load's concurrency. Clear it or choose a closed loop.");
                    Check(stage.RatePerSecond is null, PlanSettingsCatalog.StageRatePerSecond.At(i), "An open-loop stage needs a rate above 0 requests per second.");
                    Bounds.Check(PlanSettingsCatalog.StageRatePerSecond, stage.RatePerSecond, errors, "Between 0.1 and 1,000,000 requests per second.", PlanSettingsCatalog.StageRatePerSecond.At(i));
                }
                else
                {
                    Check(stage.RatePerSecond is not null, PlanSettingsCatalog.StageRatePerSecond.At(i),
                        "A rate applies to open-loop stages only; a closed-loop stage sets its workers. Clear the rate or choose OpenLoop.");
                    Check(stage.Concurrency is null, PlanSettingsCatalog.StageConcurrency.At(i), "Must be at least 1.");
                    Bounds.CheckEachEnd(PlanSettingsCatalog.StageConcurrency, stage.Concurrency, errors, "Must be at least 1.",
                        "At most 10,000: beyond that the client, not the service, is measured.", PlanSettingsCatalog.StageConcurrency.At(i));
                }
            }

            Check(load.StagesSeconds > MaxDurationSeconds, PlanSettingsCatalog.Stages.Path, "The stages together last at most 604,800 seconds (a week).");
        }
    }

    /// <summary>The longest run, in seconds: a week.</summary>
    public const int MaxDurationSeconds = 7 * 24 * 3600;

    /// <summary>When the run stops issuing, in seconds of its clock: the stop's duration, else the stages' sum; null when
    /// neither says.</summary>
    [JsonIgnore]
    public double? EffectiveDurationSeconds => Stop.DurationSeconds ?? (Load.Stages.Count > 0 ? Load.StagesSeconds : null);

    /// <summary>This plan's share when spread over <paramref name="count"/> agents: the workers, the rate and the
    /// documents divided (the first shards take one more where they do not divide evenly), the workload split by sequence
    /// number (<see cref="WorkloadShard"/>), and the target's own share (<see cref="TargetModule.ForShard"/>: a model's
    /// capacity, say). Durations and rules stay as they are: every shard runs as long as the run.</summary>
    public RunPlan ForShard(int index, int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, count);
        return this with
        {
            Target = Target.Kind.Module.ForShard(Target, index, count),
            Workload = Workload with { Shard = count == 1 ? null : new WorkloadShard(index, count) },
            Load = Load with
            {
                Agents = 1,
                Concurrency = (int)ShareOf(Load.Concurrency, index, count),
                RatePerSecond = Load.RatePerSecond / count,
            },
            Stop = Stop with { TotalDocuments = Stop.TotalDocuments is { } total ? ShareOf(total, index, count) : null },
        };
    }

    /// <summary>Shard <paramref name="index"/>'s share of <paramref name="total"/> split <paramref name="count"/> ways.</summary>
    public static long ShareOf(long total, int index, int count) => (total / count) + (index < total % count ? 1 : 0);

    /// <summary>The plan as checked; throws <see cref="RunPlanValidationException"/> listing every invalid setting.</summary>
    /// <param name="audience">Who reads the messages (see <see cref="Validate"/>).</param>
    public CheckedPlan EnsureValid(ValidationAudience audience = ValidationAudience.Remote)
    {
        var (valid, errors) = Check(audience);
        return valid ?? throw new RunPlanValidationException(errors);
    }

    public string ToJson() => JsonSerializer.Serialize(this, JsonOptions);

    /// <summary>Reads a plan; a malformed document gives a <see cref="RunPlanValidationException"/> that says where.</summary>
    public static RunPlan FromJson(string json)
    {
        try
        {
            return JsonSerializer.Deserialize<RunPlan>(json, JsonOptions)
                ?? throw new RunPlanValidationException([new FieldError("$", "The document is empty (null).")]);
        }
        catch (JsonException ex)
        {
            // In words, not the serializer's .NET type names (System.Int32, RunPlan).
            throw new RunPlanValidationException([new FieldError(ex.Path ?? "$", $"Not a valid plan. {JsonErrorText.Describe(ex)}")]);
        }
    }

    /// <summary><paramref name="a"/> × <paramref name="b"/>, or <see cref="long.MaxValue"/> when that overflows.</summary>
    private static long SaturatingMultiply(long a, long b)
    {
        var product = (Int128)a * b;
        return product > long.MaxValue ? long.MaxValue : product < long.MinValue ? long.MinValue : (long)product;
    }
}
