namespace BenchEngine.Metrics;

/// <summary>The steady part of a run: from the first to the last second whose throughput reached
/// half the median of the full seconds; seconds before are warm-up, after are cool-down.</summary>
public sealed record SteadyStateWindow
{
    /// <summary>Index of the first steady second (inclusive).</summary>
    public int FirstSecond { get; init; }

    /// <summary>Index of the last steady second (inclusive); −1 when the run had no full second.</summary>
    public int LastSecond { get; init; } = -1;

    public int Seconds => LastSecond < FirstSecond ? 0 : LastSecond - FirstSecond + 1;

    public double MeanThroughput { get; init; }

    public double RequestUnitsPerSecond { get; init; }

    public double ThrottledFraction { get; init; }

    /// <summary>Client-limited seconds inside the window, left out of its figures.</summary>
    public int SecondsLeftOut { get; init; }
}
