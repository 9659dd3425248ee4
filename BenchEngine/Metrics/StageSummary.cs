using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>The figures of one stage of a staged run (<see cref="RunSummary.Stages"/>), over its whole seconds.</summary>
/// <remarks>Stage <c>k</c> holds the run's seconds from the sum of the earlier stages' durations on; the last stage that
/// started also holds every second after its planned end (the grace period, a last partial second), so the stages' counts
/// add up to the run's totals exactly.</remarks>
public sealed record StageSummary
{
    /// <summary>0 for the first stage.</summary>
    public int Index { get; init; }

    /// <summary>The run's first second (<see cref="SecondSnapshot.Index"/>) in this stage.</summary>
    public int FirstSecond { get; init; }

    /// <summary>The run's last second in this stage.</summary>
    public int LastSecond { get; init; }

    /// <summary>The stage's seconds added up (the run's last second may be partial).</summary>
    public TimeSpan Duration { get; init; }

    /// <summary>Documents that landed.</summary>
    public long Ok { get; init; }

    public long OkRequests { get; init; }

    public long Throttled { get; init; }

    public long Errors { get; init; }

    public long Issued { get; init; }

    public long Dropped { get; init; }

    /// <summary>Requests given up after their throttle retries ran out (a batch is one).</summary>
    public long GivenUpRequests { get; init; }

    public long Abandoned { get; init; }

    public long NotStarted { get; init; }

    public long SentLate { get; init; }

    /// <summary>Requests outstanding when the stage began and when it ended: what one stage sent another may see answered.</summary>
    public long InFlightAtStart { get; init; }

    public long InFlightAtEnd { get; init; }

    /// <summary>Every request the stage sent is answered in it or still outstanding at its end: issued = ok + given up + errors
    /// + abandoned + (outstanding at the end − outstanding at the start).</summary>
    [JsonIgnore]
    public bool AccountsBalance => Issued == OkRequests + GivenUpRequests + Errors + Abandoned + InFlightAtEnd - InFlightAtStart;

    /// <summary>Seconds of the stage whose figures were the client's.</summary>
    public int ClientLimitedSeconds { get; init; }

    /// <summary>Documents ÷ the stage's seconds.</summary>
    public double Throughput { get; init; }

    /// <summary>Over all the stage's successful operations (the seconds' latencies merged); null when none succeeded.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyP50Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyP99Ms { get; init; }

    /// <summary>Throttled responses ÷ all responses.</summary>
    public double ThrottledFraction { get; init; }

    /// <summary>Null when the target reports no request units.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? TotalRequestUnits { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? RequestUnitsPerSecond { get; init; }

    public double MeanClientCpuPercent { get; init; }

    public double MaxClientCpuPercent { get; init; }
}
