using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>
/// What happened during one elapsed second of a run. Counts are by completion time: an operation
/// belongs to the second in which its response arrived. The last second of a run may be shorter
/// (<see cref="Duration"/>); no second is ever dropped, so the sums over all snapshots equal the run totals.
/// </summary>
public sealed record SecondSnapshot
{
    /// <summary>A second at least this long counts as full: rates come from full seconds only.</summary>
    public static readonly TimeSpan FullSecond = TimeSpan.FromSeconds(0.999);

    /// <summary>How late a request may be sent before it counts as <see cref="SentLate"/>.</summary>
    public static readonly TimeSpan LateAfter = TimeSpan.FromMilliseconds(10);

    /// <summary>The shortest second whose client health is judged (<see cref="ClientHealth.Limits"/>): a run's closing second
    /// of a few milliseconds is not, as its counts are no rate.</summary>
    public static readonly TimeSpan ShortestJudged = TimeSpan.FromSeconds(0.5);

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

    /// <summary>Requests the load sent in this second (counted when sent, not when answered).</summary>
    public long Issued { get; init; }

    /// <summary>Open loop: requests that were due in this second but not sent, because as many requests as the
    /// concurrency allows were outstanding or the client was backing off after failures (k6's dropped iterations).</summary>
    public long Dropped { get; init; }

    /// <summary>Open loop: requests sent in this second more than <see cref="LateAfter"/> after their intended start (after a
    /// client pause the sender catches up; their latency still counts from the intended start).</summary>
    public long SentLate { get; init; }

    /// <summary>Requests that were due (open loop) or taken by a worker (closed loop, waves) when the run stopped issuing, and
    /// were never sent: the last second has them.</summary>
    public long NotStarted { get; init; }

    /// <summary>Requests cut off at the stop: still outstanding when the grace period ran out (whether they landed is unknown),
    /// or waiting out a throttle when issuing stopped (they did not land if every answer was a 429; an earlier 5xx answer
    /// leaves open whether the service did the write).</summary>
    public long Abandoned { get; init; }

    /// <summary>Requests given up in this second (a batch is one): their documents are <see cref="GivenUp"/>.</summary>
    public long GivenUpRequests { get; init; }

    /// <summary>Documents given up in this second: their request was still throttled when its retries ran out. After
    /// 429s only they did not land; a 5xx answer (Table, Blob and Queue Storage throttle with 503 and 500) leaves open
    /// whether the service did the write, so they may have. Their last throttled response is counted in
    /// <see cref="Throttled"/> too.</summary>
    public long GivenUp { get; init; }

    /// <summary>Request units charged by the target during this second (all responses).</summary>
    public double RequestUnits { get; init; }

    /// <summary>Bytes of documents that landed.</summary>
    public long Bytes { get; init; }

    // Latencies are of the second's successful operations; a second in which none completed has none (null, written
    // as null), never 0 ms.
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyP50Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyP95Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyP99Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? LatencyMaxMs { get; init; }

    /// <summary>Operations started but not finished when the second closed.</summary>
    public long InFlight { get; init; }

    /// <summary>CPU used by this process over the second, as a share of all cores (0–100).</summary>
    public double ClientCpuPercent { get; init; }

    /// <summary>The client's health over the second and whether it was the limit; null in seconds measured before it was
    /// kept, or with client health switched off.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public ClientHealth? Health { get; init; }

    /// <summary>Whether this second's figures were the client's, not the service's (<see cref="ClientHealth.Limits"/>; for
    /// seconds measured before client health was kept, this process's CPU at or above the default bound).</summary>
    [JsonIgnore]
    public bool IsClientLimited => Health?.IsClientLimited ?? ClientCpuPercent >= ClientLimits.Default.ProcessCpuPercent;

    /// <summary>The second's latencies (<see cref="LatencyDistribution.Encode"/>), kept when the run is one shard of
    /// several, so the run's seconds merge its shards' values; null otherwise, and never written to JSON.</summary>
    [JsonIgnore]
    public byte[]? LatencyHistogram { get; init; }

    /// <summary>Whether this second lasted a whole second (every one but maybe the last).</summary>
    [JsonIgnore]
    public bool IsFull => Duration >= FullSecond;

    /// <summary>Documents per second over this interval.</summary>
    public double OkPerSecond => Duration > TimeSpan.Zero ? Ok / Duration.TotalSeconds : 0;

    /// <summary>Request units per second over this interval.</summary>
    public double RequestUnitsPerSecond => Duration > TimeSpan.Zero ? RequestUnits / Duration.TotalSeconds : 0;
}
