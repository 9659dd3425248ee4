using System.Linq.Expressions;
using System.Reflection;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// One setting of a plan, declared once from code: its path, taken from the property it reads
/// (<c>p =&gt; p.Load.Concurrency</c> is <c>Load.Concurrency</c>, and <c>load.concurrency</c> in the plan's JSON), with its
/// label, help, unit and bounds. Validation reports errors by its <see cref="Path"/>; the editor, the settings view, the
/// configuration diff and sweeps name it by its <see cref="Label"/>.
/// </summary>
public sealed record SettingDescriptor
{
    private readonly PropertyInfo[] _properties;

    private SettingDescriptor(string path, string label, Type valueType, PropertyInfo[] properties)
    {
        Path = path;
        JsonPath = SettingLabels.FlatPath(path);
        Label = label;
        ValueType = valueType;
        _properties = properties;
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

    /// <summary>A line that says what the setting does.</summary>
    public string? Help { get; init; }

    /// <summary>What its number counts ("s", "ms", "requests/s"); null when it is no quantity.</summary>
    public string? Unit { get; init; }

    /// <summary>The smallest value the rules accept, when one bound holds whatever the other settings say.</summary>
    public double? Min { get; init; }

    /// <summary>The largest value the rules accept, when one bound holds whatever the other settings say.</summary>
    public double? Max { get; init; }

    /// <summary>Whether <see cref="Min"/> itself is refused: the value must be above it ("above 0 ms").</summary>
    public bool MinExclusive { get; init; }

    /// <summary>The setting's type, as the plan holds it.</summary>
    public Type ValueType { get; }

    /// <summary>The target field this setting is, for a target's settings; null for the rest of the plan.</summary>
    public TargetField? TargetField { get; private init; }

    /// <summary>Whether this setting is one of each load stage's (its path has <c>[]</c>).</summary>
    public bool PerStage => Path.Contains("[]", StringComparison.Ordinal);

    /// <summary>Whether an error at <paramref name="fieldPath"/> is about this setting (a stage's, whatever its stage).</summary>
    public bool Matches(string fieldPath) => string.Equals(WithoutIndices(fieldPath), Path, StringComparison.Ordinal);

    /// <summary>This setting's value in <paramref name="plan"/>; null when a section on the way is absent (no thresholds), or
    /// for a stage's setting.</summary>
    public object? ValueIn(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (PerStage || TargetField is not null)
        {
            return null;
        }

        object? value = plan;
        foreach (var property in _properties)
        {
            if (value is null)
            {
                return null;
            }

            value = property.GetValue(value);
        }

        return value;
    }

    /// <summary>The setting that <paramref name="property"/> reads: <c>Setting.Of((RunPlan p) =&gt; p.Load.Concurrency, "Concurrency")</c>.
    /// A stage's setting reads one stage: <c>p =&gt; p.Load.Stages[0].Ramp</c>.</summary>
    public static SettingDescriptor Of<T>(Expression<Func<RunPlan, T>> property, string label)
    {
        ArgumentNullException.ThrowIfNull(property);
        ArgumentException.ThrowIfNullOrWhiteSpace(label);
        var segments = new List<string>();
        var properties = new List<PropertyInfo>();
        var node = property.Body;
        while (node is not ParameterExpression)
        {
            switch (node)
            {
                case UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert:
                    node = convert.Operand;
                    break;
                case MemberExpression { Member: PropertyInfo info } member:
                    segments.Add(info.Name);
                    properties.Add(info);
                    node = member.Expression!;
                    break;
                case MethodCallExpression { Method.Name: "get_Item", Object: { } list }:
                    // An indexer: the setting is every item's; the path says so with [] after the list's name.
                    segments.Add("[]");
                    node = list;
                    break;
                default:
                    throw new ArgumentException($"Not a property of the plan: {property}.", nameof(property));
            }
        }

        segments.Reverse();
        properties.Reverse();
        var path = string.Join('.', segments).Replace(".[]", "[]", StringComparison.Ordinal);
        return new SettingDescriptor(path, label, typeof(T), [.. properties]);
    }

    /// <summary>A target's setting, as its module's field declares it.</summary>
    public static SettingDescriptor ForTarget(TargetField field)
    {
        ArgumentNullException.ThrowIfNull(field);
        var type = field.Input switch
        {
            TargetInput.WholeNumber => typeof(long?),
            TargetInput.Number => typeof(double?),
            TargetInput.Flag => typeof(bool),
            TargetInput.Lines => typeof(IReadOnlyList<string>),
            _ => typeof(string),
        };
        return new SettingDescriptor(field.Path, field.Label, type, [])
        {
            Name = field.Setting,
            Help = field.Help,
            Min = field.Minimum,
            Max = field.Maximum,
            TargetField = field,
        };
    }

    /// <summary>A field path with its list indices left out: <c>Load.Stages[2].Ramp</c> → <c>Load.Stages[].Ramp</c>.</summary>
    public static string WithoutIndices(string fieldPath)
    {
        ArgumentNullException.ThrowIfNull(fieldPath);
        if (!fieldPath.Contains('[', StringComparison.Ordinal))
        {
            return fieldPath;
        }

        var text = new System.Text.StringBuilder(fieldPath.Length);
        var inIndex = false;
        foreach (var c in fieldPath)
        {
            if (c == '[')
            {
                inIndex = true;
                text.Append(c);
            }
            else if (c == ']')
            {
                inIndex = false;
                text.Append(c);
            }
            else if (!inIndex)
            {
                text.Append(c);
            }
        }

        return text.ToString();
    }

    /// <summary>A per-stage setting's path for one stage: <c>Load.Stages[].Ramp</c> at 2 → <c>Load.Stages[2].Ramp</c>.</summary>
    public string At(int index) => PerStage
        ? string.Concat(Path.AsSpan(0, Path.IndexOf("[]", StringComparison.Ordinal) + 1), index.ToString(System.Globalization.CultureInfo.InvariantCulture), Path.AsSpan(Path.IndexOf("[]", StringComparison.Ordinal) + 1))
        : throw new InvalidOperationException($"{Path} is not a setting of each stage.");

    public override string ToString() => Path;
}
