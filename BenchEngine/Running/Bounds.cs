namespace BenchEngine.Running;

/// <summary>The range rule of a setting that declares its bounds (<see cref="SettingDescriptor.Min"/>,
/// <see cref="SettingDescriptor.Max"/>, <see cref="SettingDescriptor.MinExclusive"/>): the rules read the numbers there, so
/// the catalogue and the rules cannot disagree.</summary>
internal static class Bounds
{
    /// <summary>Whether <paramref name="value"/> is within the setting's bounds. NaN fails every comparison, so it never is:
    /// "value &lt; min" would let it through, "!(value &gt;= min)" does not. Infinities fail the finite bounds.</summary>
    public static bool Admit(SettingDescriptor setting, double value) =>
        (setting.Min is not { } min || (setting.MinExclusive ? value > min : value >= min)) && (setting.Max is not { } max || value <= max);

    /// <summary>Adds <paramref name="message"/> on the setting's path (or <paramref name="path"/>: a stage's) when the value
    /// is outside its bounds; <see cref="RunPlan.NotANumber"/> for NaN, which is in no range.</summary>
    public static void Check(SettingDescriptor setting, double? value, List<FieldError> errors, string message, string? path = null) =>
        CheckEachEnd(setting, value, errors, message, message, path);

    /// <summary>As <see cref="Check(SettingDescriptor, double?, List{FieldError}, string, string?)"/>, with one message for a
    /// value below the bounds and another for one above.</summary>
    public static void CheckEachEnd(SettingDescriptor setting, double? value, List<FieldError> errors, string belowMin, string aboveMax, string? path = null)
    {
        if (value is { } v && !Admit(setting, v))
        {
            var message = double.IsNaN(v) ? RunPlan.NotANumber : setting.Max is { } max && v > max ? aboveMax : belowMin;
            errors.Add(new FieldError(path ?? setting.Path, message));
        }
    }
}
