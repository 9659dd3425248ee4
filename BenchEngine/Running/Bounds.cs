namespace BenchEngine.Running;

/// <summary>The range rule of a setting that declares its bounds (<see cref="SettingDescriptor.Min"/>,
/// <see cref="SettingDescriptor.Max"/>, <see cref="SettingDescriptor.MinExclusive"/>, <see cref="SettingDescriptor.MaxExclusive"/>,
/// and a target field's <see cref="Targets.TargetField.Min"/>, <see cref="Targets.TargetField.Max"/>,
/// <see cref="Targets.TargetField.MinExclusive"/>): the rules read the numbers there, so the catalogue, the target modules'
/// fields and the rules cannot disagree.</summary>
internal static class Bounds
{
    /// <summary>Whether <paramref name="value"/> is within the bounds: at least <paramref name="min"/> (above it when
    /// <paramref name="minExclusive"/>) and at most <paramref name="max"/> (below it when <paramref name="maxExclusive"/>);
    /// a null bound holds nothing back. NaN fails every comparison, so it never is: "value &lt; min" would let it through,
    /// "!(value &gt;= min)" does not. Infinities fail the finite bounds.</summary>
    public static bool Admit(double? min, double? max, bool minExclusive, double value, bool maxExclusive = false) =>
        (min is not { } low || (minExclusive ? value > low : value >= low)) && (max is not { } high || (maxExclusive ? value < high : value <= high));

    /// <summary>Whether <paramref name="value"/> is within the setting's bounds.</summary>
    public static bool Admit(SettingDescriptor setting, double value) =>
        Admit(setting.Min, setting.Max, setting.MinExclusive, value, setting.MaxExclusive);

    /// <summary>What is said of a value outside the bounds: <paramref name="belowMin"/> below them,
    /// <paramref name="aboveMax"/> above them, <see cref="RunPlan.NotANumber"/> for NaN, which is in no range; null for a
    /// value within them, or none.</summary>
    public static string? Refusal(double? min, double? max, bool minExclusive, bool maxExclusive, double? value, string belowMin, string aboveMax) =>
        value is not { } v || Admit(min, max, minExclusive, v, maxExclusive) ? null
        : double.IsNaN(v) ? RunPlan.NotANumber
        : max is { } high && (maxExclusive ? v >= high : v > high) ? aboveMax
        : belowMin;

    /// <summary>What is said of a value outside the setting's bounds (see
    /// <see cref="Refusal(double?, double?, bool, bool, double?, string, string)"/>); null within them.</summary>
    public static string? Refusal(SettingDescriptor setting, double? value, string belowMin, string aboveMax) =>
        Refusal(setting.Min, setting.Max, setting.MinExclusive, setting.MaxExclusive, value, belowMin, aboveMax);

    /// <summary>Adds <paramref name="message"/> on the setting's path (or <paramref name="path"/>: a stage's) when the value
    /// is outside its bounds; <see cref="RunPlan.NotANumber"/> for NaN, which is in no range.</summary>
    public static void Check(SettingDescriptor setting, double? value, List<FieldError> errors, string message, string? path = null) =>
        CheckEachEnd(setting, value, errors, message, message, path);

    /// <summary>As <see cref="Check(SettingDescriptor, double?, List{FieldError}, string, string?)"/>, with one message for a
    /// value below the bounds and another for one above.</summary>
    public static void CheckEachEnd(SettingDescriptor setting, double? value, List<FieldError> errors, string belowMin, string aboveMax, string? path = null)
    {
        if (Refusal(setting, value, belowMin, aboveMax) is { } message)
        {
            errors.Add(new FieldError(path ?? setting.Path, message));
        }
    }
}
