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

    /// <summary>Requests sent in this second (absent from exports of earlier versions: 0).</summary>
    public long Issued { get; init; }

    /// <summary>Open loop: requests due in this second but not sent.</summary>
    public long Dropped { get; init; }

    /// <summary>Documents given up in this second after their throttle retries ran out.</summary>
    public long GivenUp { get; init; }

    /// <summary>Latency of the second's successful operations (failed and throttled attempts excluded); null when none succeeded.</summary>
    public double? LatencyP50Ms { get; init; }

    public double? LatencyP95Ms { get; init; }

    public double? LatencyP99Ms { get; init; }

    public double? LatencyMaxMs { get; init; }

    public long InFlight { get; init; }

    public double ClientCpuPercent { get; init; }

    public DateTimeOffset ClosedAt { get; init; }
}
