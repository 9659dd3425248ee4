using BenchEngine.Metrics;

namespace BenchWeb.Compare;

/// <summary>A summary's per-second figures as pages show them: they leave the client-limited seconds out, so a run whose every
/// full second was client-limited has none ("—"), never 0/s.</summary>
public static class PerSecondFigures
{
    /// <summary>Every full second was client-limited (the mean of the top seconds is null only when no second was left to
    /// average).</summary>
    public static bool AllLeftOut(RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        return summary is { PerSecondLeftOut: > 0, Top10PercentMeanThroughput: null };
    }

    /// <summary><paramref name="value"/>, or null when every full second was left out.</summary>
    public static double? Of(RunSummary summary, double value) => AllLeftOut(summary) ? null : value;
}
