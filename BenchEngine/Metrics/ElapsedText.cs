using System.Globalization;

namespace BenchEngine.Metrics;

/// <summary>How every page, file and line writes a run's elapsed time, so that one run shows one time everywhere: seconds
/// with one decimal ("30.0 s"), with hours, minutes and seconds added from a minute on ("3,600.0 s (1:00:00)").</summary>
public static class ElapsedText
{
    public static string Format(TimeSpan elapsed) =>
        Parts(elapsed) is (var seconds, { } clock) ? $"{seconds} ({clock})" : Parts(elapsed).Seconds;

    /// <summary>The same time in its two parts, for a place too narrow for both on one line: the seconds ("75.0 s") and,
    /// from a minute on, the clock reading ("1:15"; null below a minute).</summary>
    public static (string Seconds, string? Clock) Parts(TimeSpan elapsed)
    {
        var seconds = Math.Round(elapsed.TotalSeconds, 1, MidpointRounding.AwayFromZero);
        var text = seconds.ToString("N1", CultureInfo.InvariantCulture) + " s";
        if (seconds < 60)
        {
            return (text, null);
        }

        // The clock reading of the same, rounded, value: 59.96 s is "60.0 s (1:00)", never "(0:59)".
        var whole = (long)Math.Floor(seconds);
        var (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60);
        return (text, hours > 0
            ? string.Create(CultureInfo.InvariantCulture, $"{hours}:{minutes:00}:{rest:00}")
            : string.Create(CultureInfo.InvariantCulture, $"{minutes}:{rest:00}"));
    }
}
