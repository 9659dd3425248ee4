namespace BenchWeb.Runs;

/// <summary>One second of an exported run, with the same figures the dashboard stores.</summary>
public sealed record RunExportSecond
{
    /// <summary>0-based second of the run.</summary>
    public int Index { get; init; }

    /// <summary>Time since the start at the end of this second, in seconds.</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Length of this second: 1, except for the last, usually partial, one.</summary>
    public double DurationSeconds { get; init; }

    public long Ok { get; init; }

    public long OkRequests { get; init; }

    public long Throttled { get; init; }

    public long Errors { get; init; }

    /// <summary>Errors by status code, when there were any.</summary>
    public IReadOnlyDictionary<int, long>? ErrorsByStatus { get; init; }

    public double RequestUnits { get; init; }

    public long Bytes { get; init; }

    public double LatencyP50Ms { get; init; }

    public double LatencyP95Ms { get; init; }

    public double LatencyP99Ms { get; init; }

    public double LatencyMaxMs { get; init; }

    public long InFlight { get; init; }

    public double ClientCpuPercent { get; init; }

    public DateTimeOffset ClosedAt { get; init; }
}
