using BenchEngine.Metrics;
using BenchWeb.Data;

namespace BenchWeb.Live;

/// <summary>A run's figures over a window of its seconds, from the saved per-second rows. Per-operation latency
/// percentiles are not stored per second, so the window's latency is given as the highest per-second p99 and
/// the median (nearest rank) of the per-second p50s, never as a percentile over the window's operations. Like the
/// summary's steady-state window, every figure leaves out (and counts) the client-limited seconds, unless every second in
/// the window was client-limited: then the figures are theirs (the page says the client was the limit).</summary>
public sealed record RunWindowSummary
{
    public int FirstSecond { get; init; }

    public int LastSecond { get; init; }

    /// <summary>Saved seconds inside the window.</summary>
    public int Seconds { get; init; }

    /// <summary>Client-limited seconds inside the window, left out of every figure below.</summary>
    public int SecondsLeftOut { get; init; }

    /// <summary>Documents ÷ the window's duration.</summary>
    public double MeanThroughput { get; init; }

    /// <summary>99th percentile (nearest rank) of the per-second ok counts over the window's full seconds.</summary>
    public double P99Throughput { get; init; }

    public double RequestUnitsPerSecond { get; init; }

    /// <summary>Throttled responses ÷ all responses in the window.</summary>
    public double ThrottledFraction { get; init; }

    /// <summary>The highest per-second p99 latency among the window's seconds that had successful requests.</summary>
    public double MaxSecondP99Ms { get; init; }

    /// <summary>The median (nearest rank) of the per-second p50 latencies among those seconds.</summary>
    public double MedianSecondP50Ms { get; init; }

    public static RunWindowSummary Calculate(IReadOnlyList<RunSecondEntity> seconds, int first, int last)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var inWindow = seconds.Where(s => s.Index >= first && s.Index <= last).OrderBy(s => s.Index).ToList();
        var snapshots = inWindow.Select(s => s.ToSnapshot()).ToList();
        var window = SummaryCalculator.ForWindow(snapshots, first, last);
        var measured = SummaryCalculator.ServiceSeconds(snapshots);
        var fullSeconds = measured.Where(s => s.IsFull).Select(s => (double)s.Ok).ToList();
        var answered = measured.Where(s => s is { OkRequests: > 0, LatencyP50Ms: not null, LatencyP99Ms: not null }).ToList();
        return new RunWindowSummary
        {
            FirstSecond = first,
            LastSecond = last,
            Seconds = inWindow.Count,
            SecondsLeftOut = window.SecondsLeftOut,
            MeanThroughput = window.MeanThroughput,
            P99Throughput = SummaryCalculator.NearestRank(fullSeconds, 99),
            RequestUnitsPerSecond = window.RequestUnitsPerSecond,
            ThrottledFraction = window.ThrottledFraction,
            MaxSecondP99Ms = answered.Count == 0 ? 0 : answered.Max(s => s.LatencyP99Ms!.Value),
            MedianSecondP50Ms = SummaryCalculator.NearestRank(answered.Select(s => s.LatencyP50Ms!.Value).ToList(), 50),
        };
    }
}
