using System.Linq.Expressions;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// One setting of a plan, declared once from code: its path, taken from the property it reads
/// (<c>p =&gt; p.Load.Concurrency</c> is <c>Load.Concurrency</c>, and <c>load.concurrency</c> in the plan's JSON), with its
/// label, help, unit and bounds. Validation reports errors by its <see cref="Path"/>; the editor, the settings view, the
/// configuration diff and sweeps name it by its <see cref="Label"/>.
/// </summary>
public sealed partial record SettingDescriptor
{
    private readonly PropertyChain _chain;

    private SettingDescriptor(string path, string label, Type valueType, PropertyChain chain)
    {
        Path = path;
        JsonPath = SettingLabels.FlatPath(path);
        Label = label;
        ValueType = valueType;
        _chain = chain;
    }

    /// <summary>The field path validation errors carry: <c>Load.Concurrency</c>; a stage's setting is
    /// <c>Load.Stages[].Concurrency</c> (an error names its stage: <c>Load.Stages[2].Concurrency</c>).</summary>
    public string Path { get; }

    /// <summary>The path in the plan's JSON, flattened: <c>load.concurrency</c>.</summary>
    public string JsonPath { get; }

    /// <summary>The setting's name wherever it is shown: the run page, comparisons, sweeps, messages.</summary>
    public string Label { get; }

    /// <summary>The setting's name in a comparison of runs, when it differs from the label (two targets' "RU/s" share a row).</summary>
    public string Name
    {
        get => field ?? Label;
        init;
    }

    /// <summary>The label beside the setting's input in the profile editor, when the form words it otherwise
    /// ("…or errors above (%)" for the auto-stop's error share).</summary>
    public string EditorLabel
    {
        get => field ?? Label;
        init;
    }

    /// <summary>The id of the setting's input in the profile editor, and where its messages show: the path, unless the form
    /// edits it in other units (a share as a percentage: <c>Stop.AutoStop.ErrorPercent</c>).</summary>
    public string EditorPath
    {
        get => field ?? Path;
        init;
    }

    /// <summary>What the editor multiplies the plan's value by to show it: 100 for a share the form edits as a percentage
    /// (the plan's 0.05 is the form's 5); 1 otherwise.</summary>
    public double EditorScale { get; init; } = 1;

    /// <summary>A line that says what the setting does.</summary>
    public string? Help { get; init; }

    /// <summary>What its number counts ("s", "ms", "requests/s"); null when it is no quantity.</summary>
    public string? Unit { get; init; }

    /// <summary>The smallest value the rules accept, when one bound holds whatever the other settings say.</summary>
    public double? Min { get; init; }

    /// <summary>The largest value the rules accept, when one bound holds whatever the other settings say.</summary>
    public double? Max { get; init; }

    /// <summary>When a run of the plan reads the setting (the template only with the JSON template shape); null: always. A
    /// target's setting applies as its module says, and only to a plan of its kind.</summary>
    public Func<RunPlan, bool>? AppliesWhen { get; init; }

    /// <summary>Whether a run of <paramref name="plan"/> reads this setting: an editor shows its input, the run page and
    /// comparisons show its value, only then.</summary>
    public bool AppliesTo(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (TargetField is null)
        {
            return AppliesWhen?.Invoke(plan) ?? true;
        }

        var module = plan.Target.Kind.Module;
        return string.Equals(JsonPath.Split('.')[1], module.Section, StringComparison.OrdinalIgnoreCase) && module.Applies(JsonPath, plan.Target);
    }

    /// <summary>The part of the profile editor the setting is edited in: a target's client settings and the throttling's
    /// retries are the client's; the rest is the section its path starts with.</summary>
    public SettingSection Section
    {
        get => _section ?? (TargetField?.ClientSetting == true ? SettingSection.Client : SectionOfPath(Path));
        init => _section = value;
    }

    private readonly SettingSection? _section;

    private static SettingSection SectionOfPath(string path) => path.Split('.')[0] switch
    {
        "Workload" => SettingSection.Workload,
        "Load" => SettingSection.Load,
        "Stop" => SettingSection.Stop,
        "Thresholds" => SettingSection.PassFail,
        "Diagnostics" => SettingSection.Diagnostics,
        _ => SettingSection.Target,
    };

    /// <summary>Whether <see cref="Min"/> itself is refused: the value must be above it ("above 0 ms").</summary>
    public bool MinExclusive { get; init; }

    /// <summary>Whether <see cref="Max"/> itself is refused: the value must be below it (a share below 1).</summary>
    public bool MaxExclusive { get; init; }

    /// <summary>The setting's type, as the plan holds it.</summary>
    public Type ValueType { get; }

    /// <summary>The target field this setting is, for a target's settings; null for the rest of the plan.</summary>
    public TargetField? TargetField { get; private init; }

    /// <summary>Whether this setting is one of each load stage's (its path has <c>[]</c>).</summary>
    public bool PerStage => Path.Contains("[]", StringComparison.Ordinal);

    /// <summary>Whether an error at <paramref name="fieldPath"/> is about this setting (a stage's, whatever its stage).</summary>
    public bool Matches(string fieldPath) => string.Equals(WithoutIndices(fieldPath), Path, StringComparison.Ordinal);

    /// <summary>This setting's value in <paramref name="plan"/>; null when a section on the way is absent (no thresholds), or
    /// for a stage's setting (<see cref="ValueIn(RunPlan, int)"/> reads one stage's).</summary>
    public object? ValueIn(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return PerStage ? null : _chain.Get(plan);
    }

    /// <summary>A stage's setting in stage <paramref name="stage"/> of <paramref name="plan"/>; null when there is no such stage.</summary>
    public object? ValueIn(RunPlan plan, int stage)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return _chain.Get(plan, stage);
    }

    /// <summary>A copy of <paramref name="plan"/> with this setting set to <paramref name="value"/> (of <see cref="ValueType"/>):
    /// each record on the way is copied, and an absent section (thresholds, auto-stop, partition key, diagnostics) starts
    /// from its defaults. A null for a setting that cannot be empty leaves out the optional section that holds it.</summary>
    /// <exception cref="InvalidOperationException">This is a stage's setting: say which stage.</exception>
    public RunPlan With(RunPlan plan, object? value)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return PerStage ? throw new InvalidOperationException($"{Path} is a setting of each stage: say which.") : _chain.With(plan, value);
    }

    /// <summary>A copy of <paramref name="plan"/> with this stage setting of stage <paramref name="stage"/> set to
    /// <paramref name="value"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The plan has no such stage.</exception>
    public RunPlan With(RunPlan plan, int stage, object? value)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return _chain.With(plan, value, stage);
    }

    /// <summary>The setting that <paramref name="property"/> reads: <c>Setting.Of((RunPlan p) =&gt; p.Load.Concurrency, "Concurrency")</c>.
    /// A stage's setting reads one stage: <c>p =&gt; p.Load.Stages[0].Ramp</c>.</summary>
    public static SettingDescriptor Of<T>(Expression<Func<RunPlan, T>> property, string label)
    {
        ArgumentNullException.ThrowIfNull(property);
        ArgumentException.ThrowIfNullOrWhiteSpace(label);
        var chain = PropertyChain.Of(property);
        return new SettingDescriptor(chain.Path, label, typeof(T), chain);
    }

    /// <summary>A target's setting, as its module's field declares it: its label, help and bounds are the field's.</summary>
    public static SettingDescriptor ForTarget(TargetField field)
    {
        ArgumentNullException.ThrowIfNull(field);
        return new SettingDescriptor(field.Path, field.Label, field.ValueType, TargetChain.Then(field.Chain))
        {
            Name = field.Setting,
            Help = field.Help,
            Min = field.Min,
            Max = field.Max,
            MinExclusive = field.MinExclusive,
            TargetField = field,
        };
    }

    private static readonly PropertyChain TargetChain = PropertyChain.Of((Expression<Func<RunPlan, TargetOptions>>)(p => p.Target));

    /// <summary>A field path with its list indices left out: <c>Load.Stages[2].Ramp</c> → <c>Load.Stages[].Ramp</c>.</summary>
    public static string WithoutIndices(string fieldPath)
    {
        ArgumentNullException.ThrowIfNull(fieldPath);
        return ListIndex().Replace(fieldPath, "[]");
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"\[[^\]]*\]")]
    private static partial System.Text.RegularExpressions.Regex ListIndex();

    /// <summary>A per-stage setting's path for one stage: <c>Load.Stages[].Ramp</c> at 2 → <c>Load.Stages[2].Ramp</c>.</summary>
    public string At(int index) => PerStage
        ? string.Concat(Path.AsSpan(0, Path.IndexOf("[]", StringComparison.Ordinal) + 1), index.ToString(System.Globalization.CultureInfo.InvariantCulture), Path.AsSpan(Path.IndexOf("[]", StringComparison.Ordinal) + 1))
        : throw new InvalidOperationException($"{Path} is not a setting of each stage.");

    public override string ToString() => Path;
}

/// <summary>The parts of a plan as the profile editor lays them out, in its order.</summary>
public enum SettingSection
{
    Target,
    Workload,
    Load,
    Client,
    Stop,
    PassFail,
    Diagnostics,
}
