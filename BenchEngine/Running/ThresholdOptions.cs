namespace BenchEngine.Running;

/// <summary>Pass/fail limits for a run (e.g. in a CI pipeline): each set limit is one check, and the run passes
/// when it completed and every check holds.</summary>
public sealed record ThresholdOptions
{
    /// <summary>The average throughput (ok ÷ elapsed) must be at least this many inserts/s.</summary>
    public double? MinThroughput { get; init; }

    /// <summary>The P99 latency over all operations must be at most this many milliseconds.</summary>
    public double? MaxP99LatencyMs { get; init; }

    /// <summary>At most this percentage of responses may be throttled (429/503).</summary>
    public double? MaxThrottledPercent { get; init; }

    /// <summary>Open loop: at most this percentage of the requests the schedule offered may have gone unsent (dropped, because
    /// as many requests as the concurrency allows were outstanding).</summary>
    public double? MaxDroppedPercent { get; init; }

    /// <summary>The dashboard's run to compare with, for <see cref="MinShareOfBaseline"/>. Headless runs take
    /// the baseline from a result file instead (<c>--baseline</c>).</summary>
    public long? BaselineRunId { get; init; }

    /// <summary>The average throughput must be at least this share of the baseline's (0.95 = 95 %).</summary>
    public double? MinShareOfBaseline { get; init; }

    /// <summary>Whether any limit is set.</summary>
    public bool IsEmpty => MinThroughput is null && MaxP99LatencyMs is null && MaxThrottledPercent is null && MaxDroppedPercent is null && MinShareOfBaseline is null;
}
