using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>The figures of a whole run, as DESIGN.md defines them.</summary>
/// <remarks>Members are only ever added: summaries stored by earlier versions (the dashboard's database, exports, headless
/// result files) must still read. A figure that does not apply or is not known is null and is written as null:
/// <list type="bullet">
/// <item>request-unit figures are null when the target reports no request units (<see cref="RequestUnitsReported"/> false:
/// Table Storage, the no-op target): "n/a";</item>
/// <item>the provisioned throughput and the cost are null when the target has request units but its throughput could not be
/// read (serverless, shared database throughput, local servers): "unknown";</item>
/// <item>latency figures are null when no operation succeeded.</item>
/// </list></remarks>
public sealed record RunSummary
{
    /// <summary>The share of seconds <see cref="Top10PercentMeanThroughput"/> averages, as Microsoft's Cosmos DB benchmark
    /// tool reports it ("Top10PercentAverageRps").</summary>
    public const double TopSecondsPercent = 10;

    /// <summary>From the run's start to its last response (the last, partial second included). The one elapsed time every
    /// page, file and line shows.</summary>
    public TimeSpan Elapsed { get; init; }

    /// <summary>Documents (entities) that landed.</summary>
    public long TotalOk { get; init; }

    public long TotalOkRequests { get; init; }

    /// <summary>Throttled responses, retried ones included.</summary>
    public long TotalThrottled { get; init; }

    public long TotalErrors { get; init; }

    public IReadOnlyDictionary<int, long> ErrorsByStatus { get; init; } = new Dictionary<int, long>();

    /// <summary>Requests the load sent.</summary>
    public long TotalIssued { get; init; }

    /// <summary>Open loop: requests that were due but never sent (see <see cref="SecondSnapshot.Dropped"/>).</summary>
    public long TotalDropped { get; init; }

    /// <summary>Documents given up after their throttle retries ran out: issued, and not known to have landed (after 429s
    /// only they did not; after a 5xx answer they may have, see <see cref="SecondSnapshot.GivenUp"/>).</summary>
    public long TotalGivenUp { get; init; }

    /// <summary>Open loop: the rate the plan offered, requests/s; null for the other load models.</summary>
    public double? OfferedRequestsPerSecond { get; init; }

    /// <summary>Requests sent ÷ elapsed; null for a run shorter than a second.</summary>
    public double? AchievedRequestsPerSecond { get; init; }

    /// <summary>Open loop: (dropped + not started) ÷ (sent + dropped + not started), the share of the schedule that was never
    /// sent (<see cref="SecondTotals.DroppedFraction"/>). Runs summed before 2026-11-27 left the not started out.</summary>
    public double DroppedFraction { get; init; }

    /// <summary>Ok ÷ elapsed.</summary>
    public double AverageThroughput { get; init; }

    /// <summary>Mean of the per-second ok counts over the run's full seconds.</summary>
    public double MeanPerSecondThroughput { get; init; }

    /// <summary>99th percentile (nearest rank) of the per-second ok counts over the run's full seconds.</summary>
    public double P99PerSecondThroughput { get; init; }

    /// <summary>Mean of the per-second ok counts of the best <see cref="TopSecondsPercent"/> % of the full seconds (at least
    /// one): Microsoft's Cosmos DB benchmark tool's "Top10PercentAverageRps" (which also leaves out the first and last five
    /// seconds; here the steady-state window is reported apart). Null when the run had no full second, and in summaries stored
    /// before it was kept.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? Top10PercentMeanThroughput { get; init; }

    /// <summary>Latency over all successful operations (for batch targets: per batch); failed and throttled attempts have
    /// none. Retries and waits are inside the latency of the operation that finally succeeded.</summary>
    public LatencySummary Latency { get; init; } = new();

    /// <summary>True when one operation is a batch of entities, so <see cref="Latency"/> is per batch.</summary>
    public bool LatencyIsPerBatch { get; init; }

    /// <summary>Whether the target reports request units. False for Table Storage and the no-op target: every request-unit
    /// figure is then null ("n/a"), and so is the cost.</summary>
    public bool RequestUnitsReported { get; init; } = true;

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? TotalRequestUnits { get; init; }

    /// <summary>RU ÷ elapsed; null when not reported, and for a run shorter than a second (no rate).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? RequestUnitsPerSecond { get; init; }

    /// <summary>RU ÷ documents landed; null when not reported or nothing landed.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? RequestUnitsPerInsert { get; init; }

    /// <summary>Throttled responses ÷ all responses.</summary>
    public double ThrottledFraction { get; init; }

    /// <summary>Provisioned RU/s the cost is based on (for autoscale: the maximum); null when unknown or not applicable.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? ProvisionedRequestUnitsPerSecond { get; init; }

    /// <summary>The provisioned throughput is autoscale, <see cref="ProvisionedRequestUnitsPerSecond"/> its maximum: billed
    /// hour by hour at 1.5 × the manual rate on the highest RU/s it scaled to (at least a tenth of the maximum).</summary>
    public bool ProvisionedAutoscale { get; init; }

    /// <summary>Cost of the provisioned throughput for this run's duration, in US dollars; null when unknown or n/a.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? EstimatedCostOfRun { get; init; }

    /// <summary>Cost of keeping the provisioned throughput for a month (730 hours), in US dollars; for autoscale, at this
    /// run's peak hour. Null when unknown or n/a.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? EstimatedCostPerMonth { get; init; }

    /// <summary>Seconds judged steady (warm-up and cool-down excluded) and their throughput.</summary>
    public SteadyStateWindow SteadyState { get; init; } = new();

    /// <summary>Highest per-second client CPU % (this process).</summary>
    public double MaxClientCpuPercent { get; init; }

    /// <summary>The client, not the service, was the limit in at least one second (<see cref="ClientLimitedSeconds"/>): the one
    /// verdict behind the client-bound badge and warnings.</summary>
    public bool ClientBound { get; init; }

    /// <summary>Seconds whose figures were the client's (<see cref="SecondSnapshot.IsClientLimited"/>).</summary>
    public int ClientLimitedSeconds { get; init; }

    /// <summary>The client-limited seconds as spans of consecutive seconds, each with why, in words.</summary>
    public IReadOnlyList<ClientLimitedSpan> ClientLimitedSpans { get; init; } = [];

    /// <summary>Full seconds left out of the per-second figures (<see cref="MeanPerSecondThroughput"/>,
    /// <see cref="P99PerSecondThroughput"/>, <see cref="Top10PercentMeanThroughput"/>) because the client was the limit.</summary>
    public int PerSecondLeftOut { get; init; }

    /// <summary>The second the client was closest to (or furthest past) a bound; null when no second has client health.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public ClientSecond? WorstClientSecond { get; init; }

    /// <summary>Requests the load was to send: open loop, every request due up to the stop; the other models, every request a
    /// worker took. Always <see cref="TotalIssued"/> + <see cref="TotalDropped"/> + <see cref="TotalNotStarted"/>, and equal to
    /// ok + given up + errors + abandoned + dropped + not started (<see cref="AccountsBalance"/>).</summary>
    public long TotalOffered { get; init; }

    /// <summary>Open loop: requests sent more than <see cref="SecondSnapshot.LateAfter"/> after their intended start.</summary>
    public long TotalSentLate { get; init; }

    /// <summary>Requests due or taken when issuing stopped, never sent.</summary>
    public long TotalNotStarted { get; init; }

    /// <summary>Requests cut off at the stop (see <see cref="SecondSnapshot.Abandoned"/>).</summary>
    public long TotalAbandoned { get; init; }

    /// <summary>Requests given up after their throttle retries ran out (a batch is one).</summary>
    public long TotalGivenUpRequests { get; init; }

    /// <summary>Open loop: requests due but not sent, dropped or not started by the stop (<see cref="SecondTotals.Unsent"/>).</summary>
    [JsonIgnore]
    public long TotalUnsent => TotalDropped + TotalNotStarted;

    /// <summary>Every request offered ended in exactly one bucket: ok + given up + errors + abandoned + dropped + not started =
    /// offered. False only for a run still in flight, or one stored before the buckets were kept.</summary>
    public bool AccountsBalance => TotalOkRequests + TotalGivenUpRequests + TotalErrors + TotalAbandoned + TotalDropped + TotalNotStarted == TotalOffered;

    /// <summary>A staged run's figures stage by stage (only the stages that started); empty for a constant load, and in
    /// summaries stored before stages.</summary>
    public IReadOnlyList<StageSummary> Stages { get; init; } = [];
}
