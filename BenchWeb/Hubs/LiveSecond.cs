using BenchWeb.Data;

namespace BenchWeb.Hubs;

/// <summary>One second of a run as the browser receives it (rates already per second).</summary>
public sealed record LiveSecond
{
    public int Index { get; init; }

    public double Elapsed { get; init; }

    public double Duration { get; init; }

    public long Ok { get; init; }

    public long OkRequests { get; init; }

    public long Throttled { get; init; }

    public long Errors { get; init; }

    public double RequestUnits { get; init; }

    public long Bytes { get; init; }

    public long Issued { get; init; }

    public long Dropped { get; init; }

    public long GivenUp { get; init; }

    // Null when no operation of the second succeeded: the latency line has a gap there, not a dive to 0 ms.
    public double? P50 { get; init; }

    public double? P95 { get; init; }

    public double? P99 { get; init; }

    public double? Max { get; init; }

    public long InFlight { get; init; }

    public double Cpu { get; init; }

    /// <summary>When the engine closed the second, as Unix milliseconds.</summary>
    public long ClosedAt { get; init; }

    public double OkPerSecond => Duration > 0 ? Ok / Duration : 0;

    public double ThrottledPerSecond => Duration > 0 ? Throttled / Duration : 0;

    public double RequestUnitsPerSecond => Duration > 0 ? RequestUnits / Duration : 0;

    public static LiveSecond From(RunSecondEntity second)
    {
        ArgumentNullException.ThrowIfNull(second);
        return new LiveSecond
        {
            Index = second.Index,
            Elapsed = second.ElapsedSeconds,
            Duration = second.DurationSeconds,
            Ok = second.Ok,
            OkRequests = second.OkRequests,
            Throttled = second.Throttled,
            Errors = second.Errors,
            RequestUnits = second.RequestUnits,
            Bytes = second.Bytes,
            Issued = second.Issued,
            Dropped = second.Dropped,
            GivenUp = second.GivenUp,
            P50 = second.LatencyP50Ms,
            P95 = second.LatencyP95Ms,
            P99 = second.LatencyP99Ms,
            Max = second.LatencyMaxMs,
            InFlight = second.InFlight,
            Cpu = second.ClientCpuPercent,
            ClosedAt = second.ClosedAt.ToUnixTimeMilliseconds(),
        };
    }
}
