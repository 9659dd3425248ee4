namespace BenchEngine.Metrics;

/// <summary>
/// What happened during one elapsed second of a run. Counts are by completion time: an operation
/// belongs to the second in which its response arrived. The last second of a run may be shorter
/// (<see cref="Duration"/>); no second is ever dropped, so the sums over all snapshots equal the run totals.
/// </summary>
public sealed record SecondSnapshot
{
    /// <summary>0 for the first second of the run.</summary>
    public int Index { get; init; }

    /// <summary>Offset of this second's end from the run's start.</summary>
    public TimeSpan Elapsed { get; init; }

    /// <summary>Length of this interval: one second, except maybe the last.</summary>
    public TimeSpan Duration { get; init; }

    /// <summary>Documents (entities) that landed in the target.</summary>
    public long Ok { get; init; }

    /// <summary>Requests that succeeded (a 100-entity transaction is one).</summary>
    public long OkRequests { get; init; }

    /// <summary>Responses that said "throttled" (429; 503/500 from Table Storage), including those retried.</summary>
    public long Throttled { get; init; }

    /// <summary>Other failed requests.</summary>
    public long Errors { get; init; }

    /// <summary>Other failed requests by status code ("0" when no response arrived, e.g. a timeout).</summary>
    public IReadOnlyDictionary<int, long> ErrorsByStatus { get; init; } = new Dictionary<int, long>();

    /// <summary>Request units charged by the target during this second (all responses).</summary>
    public double RequestUnits { get; init; }

    /// <summary>Bytes of documents that landed.</summary>
    public long Bytes { get; init; }

    public double LatencyP50Ms { get; init; }

    public double LatencyP95Ms { get; init; }

    public double LatencyP99Ms { get; init; }

    public double LatencyMaxMs { get; init; }

    /// <summary>Operations started but not finished when the second closed.</summary>
    public long InFlight { get; init; }

    /// <summary>CPU used by this process over the second, as a share of all cores (0–100).</summary>
    public double ClientCpuPercent { get; init; }

    /// <summary>Documents per second over this interval.</summary>
    public double OkPerSecond => Duration > TimeSpan.Zero ? Ok / Duration.TotalSeconds : 0;

    /// <summary>Request units per second over this interval.</summary>
    public double RequestUnitsPerSecond => Duration > TimeSpan.Zero ? RequestUnits / Duration.TotalSeconds : 0;
}
