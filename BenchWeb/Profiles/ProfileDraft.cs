using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Uploads;

namespace BenchWeb.Profiles;

/// <summary>
/// The profile editor's model: a working <see cref="RunPlan"/> that each input changes one setting at a time through the
/// setting's descriptor (<see cref="Input{T}(SettingDescriptor, int?)"/>), the profile's description and preset, and what
/// a plan cannot hold while it is edited: whether auto-stop is on while its values are empty, a target setting typed in a
/// form it cannot take (an empty port), and the secrets typed but not stored yet. Those are write-only: never filled from
/// storage, only stored. The plan that is saved is <see cref="Plan"/>, where the editor's rules are applied in one place.
/// </summary>
public sealed partial class ProfileDraft
{
    public const int MaxDescriptionLength = 2_000;

    /// <summary>Where a profile's description is reported: it is the profile's, not the plan's.</summary>
    public const string DescriptionField = "Description";

    // Each input's model, by the path its messages carry, so that its validation state is found from a message's path.
    private readonly Dictionary<string, object> _inputs = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _newSecrets = new(StringComparer.Ordinal);

    // What a target setting's input holds that cannot be the setting (an empty port), and why; the plan keeps its value.
    private readonly Dictionary<string, (object? Typed, string Problem)> _unreadable = new(StringComparer.Ordinal);

    // Whether an input was made since TakeNewInputs last asked: its validation state is then to be set.
    private bool _newInputs;

    /// <summary>A new profile's draft.</summary>
    public ProfileDraft()
        : this(new RunPlan { Name = "My benchmark" })
    {
    }

    /// <summary>A draft of <paramref name="plan"/>. Every kind's target section is kept (a <see cref="TargetOptions"/> holds
    /// them all), so what was typed for one kind stays while another is chosen.</summary>
    public ProfileDraft(RunPlan plan, string? description = null, string? presetId = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        // The diagnostics' inputs show the defaults a plan without the section runs with.
        Working = plan with { Diagnostics = plan.EffectiveDiagnostics };
        AutoStopEnabled = plan.Stop.AutoStop is not null;
        Description = description;
        PresetId = presetId;
    }

    /// <summary>The plan as the inputs left it, with values the saved plan leaves out (a rate kept from before the stages).</summary>
    public RunPlan Working { get; set; }

    public string? Description { get; set; }

    public string? PresetId { get; }

    /// <summary>Whether the plan stops early; on, the auto-stop section is there even while its values are empty.</summary>
    public bool AutoStopEnabled
    {
        get;
        set
        {
            field = value;
            if (value && Working.Stop.AutoStop is null)
            {
                Working = PlanSettingsCatalog.AutoStop.With(Working, new AutoStopOptions());
            }
        }
    }

    /// <summary>The profile's name as it is saved.</summary>
    public string Name => Working.Name.Trim();

    /// <summary>The chosen kind of target.</summary>
    public TargetKind Kind => Working.Target.Kind;

    /// <summary>The plan to save: the working plan with the editor's rules applied. A rate kept from before the stages of
    /// an open loop, the duration when stages set the length, a batch size for a target that takes none, a CSV file for
    /// another shape, empty sections and blank texts are left out; a secret typed but not stored yet counts as named.</summary>
    public RunPlan Plan
    {
        get
        {
            var plan = Working;
            var stages = plan.Load.Stages.Count > 0;
            var open = plan.Load.Model == LoadModel.OpenLoop;
            var workload = plan.Workload;
            return plan with
            {
                Name = plan.Name.Trim(),
                Target = TypedSecretsNamed(plan.Target),
                Workload = workload with
                {
                    Template = Blank(workload.Template),
                    CsvPath = Blank(workload.CsvPath),
                    // Only the CsvFile shape reads a file; a choice left from another shape would keep the file from being deleted.
                    CsvFileId = workload.Shape == DocumentShape.CsvFile ? workload.CsvFileId : null,
                    PartitionKey = workload.PartitionKey is { } key ? key with { Field = Blank(key.Field) } : null,
                },
                Load = plan.Load with
                {
                    // Each open-loop stage sets its rate; one kept from before the stages is not part of the profile.
                    RatePerSecond = stages && open ? null : plan.Load.RatePerSecond,
                    Stages = [.. plan.Load.Stages.Select(s => s with { Concurrency = open ? null : s.Concurrency, RatePerSecond = open ? s.RatePerSecond : null })],
                    // Cosmos DB for NoSQL takes no batches: a size kept from another target is not part of its profile.
                    BatchSize = Kind.TakesBatches() ? plan.Load.BatchSize : 1,
                },
                Stop = plan.Stop with
                {
                    DurationSeconds = stages ? null : plan.Stop.DurationSeconds,
                    AutoStop = AutoStopEnabled ? plan.Stop.AutoStop ?? new AutoStopOptions() : null,
                },
                Thresholds = plan.Thresholds is { IsEmpty: true, BaselineRunId: null } ? null : plan.Thresholds,
                // The defaults are no section at all: a plan that never changed them reads as it always did.
                Diagnostics = plan.Diagnostics == DiagnosticsOptions.Default ? null : plan.Diagnostics,
            };
        }
    }

    /// <summary>The input of a plan's setting (a stage's, at <paramref name="stage"/>), in the editor's units (a share as a
    /// percentage: <see cref="SettingDescriptor.EditorScale"/>).</summary>
    public SettingInput<T> Input<T>(SettingDescriptor setting, int? stage = null)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var scale = setting.EditorScale;
        return Input(
            stage is { } i ? setting.At(i) : setting.EditorPath,
            () => Scaled<T>(stage is { } s ? setting.ValueIn(Working, s) : setting.ValueIn(Working), scale),
            value =>
            {
                var written = scale != 1 && value is double d ? d / scale : (object?)value;
                Working = stage is { } s ? setting.With(Working, s, written) : setting.With(Working, written);
            });
    }

    /// <summary>The input of a plan's text (a name, a template).</summary>
    public SettingInput<string?> Text(SettingDescriptor setting) => Input<string?>(setting);

    /// <summary>The input of a target's text, choice or list (<see cref="TargetFieldInput"/>).</summary>
    public SettingInput<string?> Text(TargetField field) => Input<string?>(field);

    /// <summary>The target kind's input, by the kind's name.</summary>
    public SettingInput<string> KindName => Input(
        PlanSettingsCatalog.TargetKind.EditorPath,
        () => Kind.Name,
        name => Working = PlanSettingsCatalog.TargetKind.With(Working, new TargetKind(name ?? "")));

    /// <summary>Auto-stop's input: on or off.</summary>
    public SettingInput<bool> AutoStop => Input(PlanSettingsCatalog.AutoStop.EditorPath, () => AutoStopEnabled, on => AutoStopEnabled = on);

    /// <summary>An input of a plan's setting that shows it otherwise (the target kind by its name, auto-stop on or off).</summary>
    private SettingInput<T> Input<T>(string path, Func<T> get, Action<T> set)
    {
        if (!_inputs.TryGetValue(path, out var input))
        {
            _inputs[path] = input = new SettingInput<T>(get, set);
            _newInputs = true;
        }

        return (SettingInput<T>)input;
    }

    /// <summary>The input of a target's setting, in its input's form (<see cref="TargetFieldInput"/>): what cannot be the
    /// setting is kept here, and said by <see cref="ValidateAll"/>, while the plan keeps the setting's value.</summary>
    public SettingInput<T> Input<T>(TargetField field)
    {
        ArgumentNullException.ThrowIfNull(field);
        return Input<T>(
            field.Path,
            () => (T)(_unreadable.TryGetValue(field.Path, out var kept) ? kept.Typed : TargetFieldInput.Shown(field, field.ValueIn(Working.Target)))!,
            typed =>
            {
                _unreadable.Remove(field.Path);
                if (TargetFieldInput.TryRead(field, typed, out var value, out var problem))
                {
                    Working = Working with { Target = field.With(Working.Target, value) };
                }
                else if (problem is not null)
                {
                    _unreadable[field.Path] = (typed, problem);
                }
            });
    }

    /// <summary>The model of the input that edits the setting at a field path as the editor shows it (<c>Load.Concurrency</c>,
    /// <c>Load.Stages[2].Ramp</c>, <c>Target.Cosmos.Endpoint</c>), once drawn; null for a rule about several settings or a
    /// setting with no input.</summary>
    public object? InputAt(string path) => _inputs.GetValueOrDefault(path);

    /// <summary>Whether inputs were drawn since the last call (their validation state is then to be set); resets it.</summary>
    public bool TakeNewInputs()
    {
        var any = _newInputs;
        _newInputs = false;
        return any;
    }

    /// <summary>The box a secret of the setting at <paramref name="field"/> is pasted into: write-only, stored when saved.</summary>
    public SettingInput<string?> NewSecret(TargetField field)
    {
        ArgumentNullException.ThrowIfNull(field);
        return Input<string?>(
            $"New {field.Path}",
            () => _newSecrets.GetValueOrDefault(field.Path),
            value =>
            {
                if (string.IsNullOrWhiteSpace(value))
                {
                    _newSecrets.Remove(field.Path);
                }
                else
                {
                    _newSecrets[field.Path] = value;
                }
            });
    }

    /// <summary>The chosen kind's secrets typed but not stored yet (a key pasted before switching kinds is not among them).</summary>
    public IEnumerable<(TargetField Field, string Secret)> TypedSecrets =>
        Kind.Module.Fields.Where(f => _newSecrets.ContainsKey(f.Path)).Select(f => (f, _newSecrets[f.Path]));

    /// <summary>Drops every secret typed into the form (once stored, or when the user may not store secrets).</summary>
    public void ForgetTypedSecrets() => _newSecrets.Clear();

    /// <summary>Names the secret of a setting (once stored, or back to the environment variable it defaults to).</summary>
    public void NameSecret(TargetField field, string? name) => Input<string?>(field).Value = name;

    /// <summary>Adds a stage at the level of the one before it (or the load's own level), so a ramp is one change away.</summary>
    public void AddStage()
    {
        var stages = Working.Load.Stages;
        if (stages.Count < LoadOptions.MaxStages)
        {
            var last = stages.Count > 0 ? stages[^1] : null;
            var stage = new LoadStage
            {
                DurationSeconds = last?.DurationSeconds ?? 10,
                Concurrency = last?.Concurrency ?? Working.Load.Concurrency,
                RatePerSecond = last?.RatePerSecond ?? Working.Load.RatePerSecond,
            };
            Working = PlanSettingsCatalog.Stages.With(Working, (IReadOnlyList<LoadStage>)[.. stages, stage]);
        }
    }

    public void RemoveStage(int index)
    {
        if (index >= 0 && index < Working.Load.Stages.Count)
        {
            Working = PlanSettingsCatalog.Stages.With(Working, (IReadOnlyList<LoadStage>)[.. Working.Load.Stages.Where((_, i) => i != index)]);
        }
    }

    /// <summary>The plan's validation errors, by the field the editor shows them at (e.g. <c>Load.Concurrency</c>).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyDictionary<string, string[]> Validate(Func<long, string?> uploadedFile) => ByField(Check(uploadedFile).Errors);

    /// <summary>Errors grouped by the field the editor shows them at, in the profile's words.</summary>
    public static IReadOnlyDictionary<string, string[]> ByField(IEnumerable<FieldError> errors) =>
        errors.GroupBy(e => Translate(e.Field), StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Select(e => InProfileWords(e.Message)).ToArray(), StringComparer.Ordinal);

    /// <summary>The plan's rules, as a plan from the web (<see cref="WebPlanRules"/>), the chosen kind's settings typed in
    /// a form they cannot take, and the profile's own rules (its description).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyList<FieldError> ValidateAll(Func<long, string?> uploadedFile) => Check(uploadedFile).Errors;

    /// <summary>Checks the draft once, by every rule <see cref="ValidateAll"/> names; when none is broken, the checked draft
    /// that saving and launching take without checking again.</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public (CheckedDraft? Checked, IReadOnlyList<FieldError> Errors) Check(Func<long, string?> uploadedFile)
    {
        var chosen = Kind.Module;
        var unreadable = _unreadable.Where(u => chosen.FieldAt(u.Key) is not null).Select(u => new FieldError(u.Key, u.Value.Problem)).ToList();
        var (plan, ruleErrors) = WebPlanRules.Check(Plan, uploadedFile);
        var errors = ruleErrors.Where(e => !unreadable.Exists(p => p.Field == e.Field)).ToList();
        errors.AddRange(unreadable);
        errors.AddRange(CheckDescription(Description));
        return (errors.Count == 0 && plan is not null ? new CheckedDraft(this, plan) : null, errors);
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

    /// <summary>A rule's message as the form says it: the engine speaks of plans, a person filling in this form is
    /// editing a profile.</summary>
    public static string InProfileWords(string message) =>
        PlanWord().Replace(message, match => match.Value.StartsWith('A') ? "A profile" : match.Value.StartsWith('a') ? "a profile" : "the profile");

    [System.Text.RegularExpressions.GeneratedRegex(@"\b([Tt]he|[Aa]) plan\b", System.Text.RegularExpressions.RegexOptions.None, 1000)]
    private static partial System.Text.RegularExpressions.Regex PlanWord();

    /// <summary>Where the form shows a setting's messages: its editor path (auto-stop shares are percentages in the form and
    /// fractions in the plan: <c>Stop.AutoStop.ErrorFractionAbove</c> → <c>Stop.AutoStop.ErrorPercent</c>).</summary>
    public static string Translate(string field) =>
        PlanSettingsCatalog.Find(field) is { PerStage: false } setting && setting.Path == field ? setting.EditorPath : field;

    // A typed secret not stored yet counts as named: it gets its name when saved.
    private TargetOptions TypedSecretsNamed(TargetOptions target) =>
        _newSecrets.Keys.Select(TargetSettings.Field).OfType<TargetField>()
            .Where(f => string.IsNullOrWhiteSpace(f.ValueIn(target) as string))
            .Aggregate(target, (options, field) => field.With(options, "(stored with this profile)"));

    // A plan's value in the editor's units; rounded, so that 0.07 shows as 7 and not 7.000000000000001.
    private static T Scaled<T>(object? value, double scale) =>
        value is null ? default! : (T)(scale != 1 && value is double d ? Math.Round(d * scale, 10) : value);

    private static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();
}
