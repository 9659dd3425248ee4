using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Uploads;

namespace BenchWeb.Profiles;

/// <summary>The profile editor's model: every engine setting as an editable property, converted to and from
/// the engine's <see cref="RunPlan"/>, whose rules decide what is valid. Typed secrets are write-only: they are
/// never filled from storage, only stored.</summary>
public sealed partial class ProfileForm
{
    public string Name { get; set; } = "My benchmark";

    public const int MaxDescriptionLength = 2_000;

    public string? Description { get; set; }

    public string? PresetId { get; set; }

    // Target
    public TargetKind TargetKind { get; set; } = TargetRegistry.Default;

    public WriteOperation Operation { get; set; } = WriteOperation.Create;

    /// <summary>The target kind by its name, for the form's choice.</summary>
    public string TargetKindName
    {
        get => TargetKind.Name;
        set => TargetKind = new TargetKind(value ?? "");
    }

    /// <summary>Every registered target's settings, by field path (<c>Target.Cosmos.Endpoint</c>): what a user typed for one
    /// kind stays while another is chosen, and only the chosen kind's settings are checked.</summary>
    public IReadOnlyDictionary<string, TargetFieldValue> TargetFields { get; } = NewTargetFields(new TargetOptions());

    /// <summary>Drops every secret typed into the form (once stored, or when the user may not store secrets).</summary>
    public void ForgetTypedSecrets()
    {
        foreach (var value in TargetFields.Values)
        {
            value.NewSecret = null;
        }
    }

    /// <summary>The chosen kind's settings, in its module's order.</summary>
    public IEnumerable<TargetFieldValue> ChosenTargetFields => TargetKind.Module.Fields.Select(f => TargetFields[f.Path]);

    // Workload
    public DocumentShape Shape { get; set; } = DocumentShape.SmallDto;

    public string? Template { get; set; }

    public int? TargetSizeBytes { get; set; }

    /// <summary>A server path from a profile saved before files were uploaded; kept only so that the form can say it is
    /// no longer allowed. The editor has no box for it.</summary>
    public string? CsvPath { get; set; }

    /// <summary>The uploaded CSV file, for the CsvFile shape.</summary>
    public long? CsvFileId { get; set; }

    /// <summary>Null: the shape's default strategy.</summary>
    public PartitionKeyStrategy? PartitionKeyStrategy { get; set; }

    public string? PartitionKeyField { get; set; }

    public int PartitionKeyCount { get; set; } = 10;

    public double HotKeyFraction { get; set; } = 0.8;

    public int WorkloadSeed { get; set; } = 1;

    // Load
    public LoadModel LoadModel { get; set; } = LoadModel.ClosedLoop;

    public int Concurrency { get; set; } = 10;

    public double? RatePerSecond { get; set; }

    public int BatchSize { get; set; } = 1;

    /// <summary>Agents the load is spread over (shared mode); 0: every agent alive at launch.</summary>
    public int Agents { get; set; } = 1;

    public int MaxRetries { get; set; } = 9;

    public bool SharedBackoff { get; set; } = true;

    public double BaseDelayMs { get; set; } = 100;

    /// <summary>The load's stages (empty: a constant load). With stages the run lasts their sum: the duration is not sent.</summary>
    public List<ProfileStage> Stages { get; set; } = [];

    // Stop
    public long? TotalDocuments { get; set; }

    public long? DocumentsPerWorker { get; set; }

    public double? DurationSeconds { get; set; } = 60;

    public bool AutoStopEnabled { get; set; }

    public double? AutoStopThrottledPercent { get; set; }

    public double? AutoStopErrorPercent { get; set; }

    /// <summary>Open loop: stop when more than this share of the due requests went unsent, %.</summary>
    public double? AutoStopDroppedPercent { get; set; }

    public int AutoStopWindowSeconds { get; set; } = 10;

    // Pass/fail
    public double? MinThroughput { get; set; }

    public double? MaxP99LatencyMs { get; set; }

    public double? MaxThrottledPercent { get; set; }

    /// <summary>Open loop: at most this share of the due requests may go unsent, %.</summary>
    public double? MaxDroppedPercent { get; set; }

    public long? BaselineRunId { get; set; }

    /// <summary>Percent in the form, a share in the plan.</summary>
    public double? MinPercentOfBaseline { get; set; }

    // Diagnostics of the slowest requests
    /// <summary>Keep every request at least this slow (ms); empty: no threshold.</summary>
    public double? DiagnosticsThresholdMs { get; set; }

    /// <summary>Keep the slowest requests of every second, this many (0: none).</summary>
    public int DiagnosticsSlowestPerSecond { get; set; } = BenchEngine.Diagnostics.DiagnosticsOptions.Default.SlowestPerSecond;

    public static ProfileForm FromPlan(RunPlan plan, string? description = null, string? presetId = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var target = plan.Target;
        var workload = plan.Workload;
        var load = plan.Load;
        var stop = plan.Stop;
        var form = new ProfileForm
        {
            Name = plan.Name,
            Description = description,
            PresetId = presetId,
            TargetKind = target.Kind,
            Operation = target.Operation,
            Shape = workload.Shape,
            Template = workload.Template,
            TargetSizeBytes = workload.TargetSizeBytes,
            CsvPath = workload.CsvPath,
            CsvFileId = workload.CsvFileId,
            PartitionKeyStrategy = workload.PartitionKey?.Strategy,
            PartitionKeyField = workload.PartitionKey?.Field,
            PartitionKeyCount = workload.PartitionKey?.KeyCount ?? 10,
            HotKeyFraction = workload.PartitionKey?.HotKeyFraction ?? 0.8,
            WorkloadSeed = workload.Seed,
            LoadModel = load.Model,
            Concurrency = load.Concurrency,
            RatePerSecond = load.RatePerSecond,
            BatchSize = load.BatchSize,
            Agents = load.Agents,
            MaxRetries = load.Throttling.MaxRetries,
            SharedBackoff = load.Throttling.SharedBackoff,
            BaseDelayMs = load.Throttling.BaseDelayMs,
            Stages = [.. load.Stages.Select(ProfileStage.From)],
            TotalDocuments = stop.TotalDocuments,
            DocumentsPerWorker = stop.DocumentsPerWorker,
            DurationSeconds = stop.DurationSeconds,
            AutoStopEnabled = stop.AutoStop is not null,
            AutoStopThrottledPercent = stop.AutoStop?.ThrottledFractionAbove * 100,
            AutoStopErrorPercent = stop.AutoStop?.ErrorFractionAbove * 100,
            AutoStopDroppedPercent = stop.AutoStop?.DroppedFractionAbove * 100,
            AutoStopWindowSeconds = stop.AutoStop?.WindowSeconds ?? 10,
            MinThroughput = plan.Thresholds?.MinThroughput,
            MaxP99LatencyMs = plan.Thresholds?.MaxP99LatencyMs,
            MaxThrottledPercent = plan.Thresholds?.MaxThrottledPercent,
            MaxDroppedPercent = plan.Thresholds?.MaxDroppedPercent,
            BaselineRunId = plan.Thresholds?.BaselineRunId,
            MinPercentOfBaseline = plan.Thresholds?.MinShareOfBaseline * 100,
            DiagnosticsThresholdMs = plan.EffectiveDiagnostics.ThresholdMs,
            DiagnosticsSlowestPerSecond = plan.EffectiveDiagnostics.SlowestPerSecond,
        };
        var settings = TargetSettings.Read(target);
        foreach (var (path, value) in form.TargetFields)
        {
            value.Read(TargetSettings.Get(settings, path));
        }

        return form;
    }

    public RunPlan ToPlan() => ToPlan(out _);

    // The plan, and what of the target's settings could not be written to it.
    private RunPlan ToPlan(out List<FieldError> targetProblems) => new()
    {
        Name = Name.Trim(),
        Target = BuildTarget(out targetProblems),
        Workload = new WorkloadOptions
        {
            Shape = Shape,
            Template = Blank(Template),
            TargetSizeBytes = TargetSizeBytes,
            CsvPath = Blank(CsvPath),
            // Only the CsvFile shape reads a file; a choice left from another shape would keep the file from being deleted.
            CsvFileId = Shape == DocumentShape.CsvFile ? CsvFileId : null,
            PartitionKey = PartitionKeyStrategy is { } strategy
                ? new PartitionKeyOptions { Strategy = strategy, Field = Blank(PartitionKeyField), KeyCount = PartitionKeyCount, HotKeyFraction = HotKeyFraction }
                : null,
            Seed = WorkloadSeed,
        },
        Load = new LoadOptions
        {
            Model = LoadModel,
            Concurrency = Concurrency,
            // Each open-loop stage sets its rate; one kept from before the stages is not part of the profile.
            RatePerSecond = Stages.Count > 0 && LoadModel == LoadModel.OpenLoop ? null : RatePerSecond,
            Stages = [.. Stages.Select(s => s.ToStage(LoadModel))],
            // Cosmos DB for NoSQL takes no batches: a size kept from another target is not part of its profile.
            BatchSize = TargetKind.TakesBatches() ? BatchSize : 1,
            Agents = Agents,
            Throttling = new ThrottleOptions { MaxRetries = MaxRetries, SharedBackoff = SharedBackoff, BaseDelayMs = BaseDelayMs },
        },
        Stop = new StopOptions
        {
            TotalDocuments = TotalDocuments,
            DocumentsPerWorker = DocumentsPerWorker,
            DurationSeconds = Stages.Count > 0 ? null : DurationSeconds,
            AutoStop = AutoStopEnabled
                ? new AutoStopOptions
                {
                    ThrottledFractionAbove = AutoStopThrottledPercent / 100,
                    ErrorFractionAbove = AutoStopErrorPercent / 100,
                    DroppedFractionAbove = AutoStopDroppedPercent / 100,
                    WindowSeconds = AutoStopWindowSeconds,
                }
                : null,
        },
        Thresholds = BuildThresholds(),
        Diagnostics = BuildDiagnostics(),
    };

    // The defaults are no section at all: a plan that never changed them reads as it always did.
    private BenchEngine.Diagnostics.DiagnosticsOptions? BuildDiagnostics()
    {
        var diagnostics = new BenchEngine.Diagnostics.DiagnosticsOptions { ThresholdMs = DiagnosticsThresholdMs, SlowestPerSecond = DiagnosticsSlowestPerSecond };
        return diagnostics == BenchEngine.Diagnostics.DiagnosticsOptions.Default ? null : diagnostics;
    }

    // Every kind's settings go to the plan (as a profile keeps them); a value that cannot be its setting leaves the default
    // there and is reported, for the chosen kind, by ValidateAll.
    private TargetOptions BuildTarget(out List<FieldError> problems)
    {
        problems = [];
        var values = new List<KeyValuePair<string, System.Text.Json.Nodes.JsonNode?>>();
        foreach (var (path, value) in TargetFields)
        {
            if (value.TryWrite(out var json, out var problem))
            {
                values.Add(new(path, json));
            }
            else if (problem is not null)
            {
                problems.Add(new FieldError(path, problem));
            }
        }

        return TargetSettings.WithAll(new TargetOptions { Kind = TargetKind, Operation = Operation }, values);
    }

    private static Dictionary<string, TargetFieldValue> NewTargetFields(TargetOptions defaults)
    {
        var settings = TargetSettings.Read(defaults);
        var fields = new Dictionary<string, TargetFieldValue>(StringComparer.Ordinal);
        foreach (var field in TargetRegistry.All.SelectMany(m => m.Fields))
        {
            if (!fields.ContainsKey(field.Path))
            {
                var setting = TargetSettings.Get(settings, field.Path);
                var value = new TargetFieldValue(field) { EmptyMeansUnset = setting is null };
                value.Read(setting);
                fields[field.Path] = value;
            }
        }

        return fields;
    }

    private ThresholdOptions? BuildThresholds()
    {
        var thresholds = new ThresholdOptions
        {
            MinThroughput = MinThroughput,
            MaxP99LatencyMs = MaxP99LatencyMs,
            MaxThrottledPercent = MaxThrottledPercent,
            MaxDroppedPercent = MaxDroppedPercent,
            BaselineRunId = BaselineRunId,
            MinShareOfBaseline = MinPercentOfBaseline / 100,
        };
        return thresholds.IsEmpty && thresholds.BaselineRunId is null ? null : thresholds;
    }

    /// <summary>The plan's validation errors, by field path (e.g. <c>Load.Concurrency</c>).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyDictionary<string, string[]> Validate(Func<long, string?> uploadedFile)
    {
        var errors = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var error in ValidateAll(uploadedFile))
        {
            var field = Translate(error.Field);
            if (!errors.TryGetValue(field, out var messages))
            {
                errors[field] = messages = [];
            }

            messages.Add(InProfileWords(error.Message));
        }

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray(), StringComparer.Ordinal);
    }

    /// <summary>The plan's rules, as a plan from the web (<see cref="WebPlanRules"/>), and the profile's own (its description).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyList<FieldError> ValidateAll(Func<long, string?> uploadedFile)
    {
        var plan = ToPlan(out var problems);
        var chosen = TargetKind.Module;
        var unreadable = problems.Where(p => chosen.FieldAt(p.Field) is not null).ToList();
        var errors = WebPlanRules.Validate(plan, uploadedFile).Where(e => !unreadable.Exists(p => p.Field == e.Field)).ToList();
        errors.AddRange(unreadable);
        errors.AddRange(CheckDescription(Description));
        return errors;
    }

    /// <summary>What is wrong with a profile's description, however it was given (this form, the API): its length, and
    /// characters that plain text has no place for (<see cref="PlainText"/>; line breaks are fine).</summary>
    public static IEnumerable<FieldError> CheckDescription(string? description)
    {
        if (description?.Trim().Length > MaxDescriptionLength)
        {
            yield return new FieldError(DescriptionField, $"At most {MaxDescriptionLength:N0} characters.");
        }

        if (PlainText.Check(description, allowLineBreaks: true) is { } unprintable)
        {
            yield return new FieldError(DescriptionField, unprintable);
        }
    }

    /// <summary>The model and property of the input that edits the setting at a field path (<c>Load.Concurrency</c>,
    /// <c>Load.Stages[2].Ramp</c>, <c>Target.Cosmos.Endpoint</c>), so that the input breaking a rule, and only it, is marked
    /// invalid; null for a rule about several settings (<c>Stop</c>: say when to stop) or a setting the form has no input for.</summary>
    public (object Model, string Property)? InputOf(string field)
    {
        ArgumentNullException.ThrowIfNull(field);
        if (field == DescriptionField)
        {
            return (this, nameof(Description));
        }

        if (PlanSettingsCatalog.Find(field) is not { } setting)
        {
            return null;
        }

        if (setting.TargetField is not null)
        {
            return TargetFields.TryGetValue(setting.Path, out var value) ? (value, value.Property) : null;
        }

        if (setting.PerStage)
        {
            return StageIndex(field) is { } index && index < Stages.Count && StageProperties.TryGetValue(setting, out var stageProperty)
                ? (Stages[index], stageProperty)
                : null;
        }

        return Properties.TryGetValue(setting, out var property) ? (this, property) : null;
    }

    /// <summary>Where a profile's description is reported: it is the profile's, not the plan's.</summary>
    public const string DescriptionField = "Description";

    // The stage a field path names: Load.Stages[2].Ramp → 2.
    private static int? StageIndex(string field)
    {
        var open = field.IndexOf('[', StringComparison.Ordinal);
        var close = field.IndexOf(']', StringComparison.Ordinal);
        return open >= 0 && close > open && int.TryParse(field.AsSpan(open + 1, close - open - 1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var index)
            ? index
            : null;
    }

    /// <summary>A rule's message as the form says it: the engine speaks of plans, a person filling in this form is
    /// editing a profile.</summary>
    public static string InProfileWords(string message) =>
        PlanWord().Replace(message, match => match.Value.StartsWith('A') ? "A profile" : match.Value.StartsWith('a') ? "a profile" : "the profile");

    [System.Text.RegularExpressions.GeneratedRegex(@"\b([Tt]he|[Aa]) plan\b", System.Text.RegularExpressions.RegexOptions.None, 1000)]
    private static partial System.Text.RegularExpressions.Regex PlanWord();

    // The form's property that edits each of the plan's settings; a setting not here has no input of its own (the shard,
    // the stages as a whole, a rule about when to stop).
    private static readonly Dictionary<SettingDescriptor, string> Properties = new(ReferenceEqualityComparer.Instance)
    {
        [PlanSettingsCatalog.Name] = nameof(Name),
        [PlanSettingsCatalog.TargetKind] = nameof(TargetKindName),
        [PlanSettingsCatalog.Operation] = nameof(Operation),
        [PlanSettingsCatalog.Shape] = nameof(Shape),
        [PlanSettingsCatalog.Template] = nameof(Template),
        [PlanSettingsCatalog.TargetSizeBytes] = nameof(TargetSizeBytes),
        [PlanSettingsCatalog.CsvFileId] = nameof(CsvFileId),
        [PlanSettingsCatalog.Seed] = nameof(WorkloadSeed),
        [PlanSettingsCatalog.PartitionKeyStrategy] = nameof(PartitionKeyStrategy),
        [PlanSettingsCatalog.PartitionKeyField] = nameof(PartitionKeyField),
        [PlanSettingsCatalog.PartitionKeyCount] = nameof(PartitionKeyCount),
        [PlanSettingsCatalog.HotKeyFraction] = nameof(HotKeyFraction),
        [PlanSettingsCatalog.LoadModel] = nameof(LoadModel),
        [PlanSettingsCatalog.Concurrency] = nameof(Concurrency),
        [PlanSettingsCatalog.RatePerSecond] = nameof(RatePerSecond),
        [PlanSettingsCatalog.BatchSize] = nameof(BatchSize),
        [PlanSettingsCatalog.Agents] = nameof(Agents),
        [PlanSettingsCatalog.MaxRetries] = nameof(MaxRetries),
        [PlanSettingsCatalog.SharedBackoff] = nameof(SharedBackoff),
        [PlanSettingsCatalog.BaseDelayMs] = nameof(BaseDelayMs),
        [PlanSettingsCatalog.TotalDocuments] = nameof(TotalDocuments),
        [PlanSettingsCatalog.DocumentsPerWorker] = nameof(DocumentsPerWorker),
        [PlanSettingsCatalog.DurationSeconds] = nameof(DurationSeconds),
        [PlanSettingsCatalog.AutoStop] = nameof(AutoStopEnabled),
        [PlanSettingsCatalog.AutoStopThrottled] = nameof(AutoStopThrottledPercent),
        [PlanSettingsCatalog.AutoStopErrors] = nameof(AutoStopErrorPercent),
        [PlanSettingsCatalog.AutoStopDropped] = nameof(AutoStopDroppedPercent),
        [PlanSettingsCatalog.AutoStopWindowSeconds] = nameof(AutoStopWindowSeconds),
        [PlanSettingsCatalog.MinThroughput] = nameof(MinThroughput),
        [PlanSettingsCatalog.MaxP99LatencyMs] = nameof(MaxP99LatencyMs),
        [PlanSettingsCatalog.MaxThrottledPercent] = nameof(MaxThrottledPercent),
        [PlanSettingsCatalog.MaxDroppedPercent] = nameof(MaxDroppedPercent),
        [PlanSettingsCatalog.BaselineRunId] = nameof(BaselineRunId),
        [PlanSettingsCatalog.MinShareOfBaseline] = nameof(MinPercentOfBaseline),
        [PlanSettingsCatalog.DiagnosticsThresholdMs] = nameof(DiagnosticsThresholdMs),
        [PlanSettingsCatalog.DiagnosticsSlowestPerSecond] = nameof(DiagnosticsSlowestPerSecond),
    };

    // Each stage row's property for a stage's setting.
    private static readonly Dictionary<SettingDescriptor, string> StageProperties = new(ReferenceEqualityComparer.Instance)
    {
        [PlanSettingsCatalog.StageDurationSeconds] = nameof(ProfileStage.DurationSeconds),
        [PlanSettingsCatalog.StageConcurrency] = nameof(ProfileStage.Workers),
        [PlanSettingsCatalog.StageRatePerSecond] = nameof(ProfileStage.RatePerSecond),
        [PlanSettingsCatalog.StageRamp] = nameof(ProfileStage.Ramp),
    };

    /// <summary>Where the form shows a setting's messages: its editor path (auto-stop shares are percentages in the form and
    /// fractions in the plan: <c>Stop.AutoStop.ErrorFractionAbove</c> → <c>Stop.AutoStop.ErrorPercent</c>).</summary>
    public static string Translate(string field) =>
        PlanSettingsCatalog.Find(field) is { PerStage: false } setting && setting.Path == field ? setting.EditorPath : field;

    private static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();

}
