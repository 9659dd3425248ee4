namespace Benchmarks;

/// <summary>The medians and percentiles the benchmarks print.</summary>
internal static class Statistics
{
    /// <summary>The middle value (of an even count, the higher of the two middle ones).</summary>
    public static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted[sorted.Count / 2];
    }

    /// <summary>The value at <paramref name="p"/> (0 to 1) of values sorted in ascending order. Nearest rank, as the run
    /// summaries.</summary>
    public static double NearestRank(List<double> sorted, double p) => sorted[Math.Max(0, (int)Math.Ceiling(p * sorted.Count) - 1)];
}
