using System.Globalization;

namespace BenchWeb.Compare;

/// <summary>How far a run's figure is from the baseline's (the first run of a comparison): absolute and in %.</summary>
public sealed record ComparisonChange(double Absolute, double? Percent)
{
    private const char Minus = '\u2212';

    /// <summary>The change of <paramref name="value"/> from <paramref name="baseline"/>; no percentage from a baseline
    /// of 0 (unless the value is 0 too: no change).</summary>
    public static ComparisonChange Between(double value, double baseline) =>
        new(value - baseline, baseline != 0 ? (value - baseline) / Math.Abs(baseline) * 100 : value == 0 ? 0 : null);

    /// <summary>True when the change reads "0.0 %": too small to call better or worse.</summary>
    public bool RoundsToNothing => Percent is { } percent ? Math.Abs(percent) < 0.05 : Absolute == 0;

    /// <summary>"+12.3 %", "−4.0 %", "0.0 %"; "—" when the baseline was 0.</summary>
    public string FormatPercent() => Percent is { } percent ? Signed(percent, "N1") + " %" : "—";

    /// <summary>The absolute change in the figure's own format, e.g. "+120.5" or "−3".</summary>
    public string FormatAbsolute(string format) => Signed(Absolute, format);

    private static string Signed(double value, string format)
    {
        var text = Math.Abs(value).ToString(format, CultureInfo.InvariantCulture);
        // A change that rounds to zero carries no sign: "+0.0 %" would claim a direction that is not there.
        var rounded = double.Parse(text, NumberStyles.Number, CultureInfo.InvariantCulture);
        return rounded == 0 ? text : (value > 0 ? "+" : Minus.ToString()) + text;
    }
}
