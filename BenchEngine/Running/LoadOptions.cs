using System.Text.Json.Serialization;

namespace BenchEngine.Running;

/// <summary>How load is offered to the target.</summary>
public sealed record LoadOptions
{
    public LoadModel Model { get; init; } = LoadModel.ClosedLoop;

    /// <summary>Closed loop: workers, each with one request outstanding. Waves: requests per wave.
    /// Open loop: most requests outstanding at once (a guard for the client; latency still counts from the intended start).</summary>
    public int Concurrency { get; init; } = 10;

    /// <summary>Open loop only: requests started per second, on schedule, whether or not earlier ones finished.</summary>
    public double? RatePerSecond { get; init; }

    /// <summary>The rate the schedule offers, requests/s: <see cref="RatePerSecond"/> for the open loop (with stages: their
    /// mean, the requests they plan ÷ their seconds), null for the other
    /// models (whatever a form kept in <see cref="RatePerSecond"/>).</summary>
    [JsonIgnore]
    public double? OfferedRatePerSecond => Model != LoadModel.OpenLoop ? null
        : Stages.Count == 0 ? RatePerSecond
        : StagesSeconds > 0 ? new StageSchedule(Stages, s => s.RatePerSecond ?? 0).RequestsDueBy(StagesSeconds) / StagesSeconds : null;

    /// <summary>Documents per request: 1 for point writes; up to 100 entities sharing a partition key
    /// for a Tables entity-group transaction.</summary>
    public int BatchSize { get; init; } = 1;

    public ThrottleOptions Throttling { get; init; } = new();

    /// <summary>How many agents the load is spread over (shared mode): each runs a share of the workers, the rate and the
    /// documents, from a common start. 1 (the default): one agent. <see cref="AllAgents"/>: every agent alive at launch.</summary>
    public int Agents { get; init; } = 1;

    /// <summary>The value of <see cref="Agents"/> that means every agent alive at launch.</summary>
    public const int AllAgents = 0;

    /// <summary>The most stages a plan may have.</summary>
    public const int MaxStages = 50;

    /// <summary>A load that changes over the run: stage after stage, each with its duration, level and ramp. Empty (the
    /// default): the constant load of <see cref="Concurrency"/> or <see cref="RatePerSecond"/> for the whole run. With stages
    /// the run lasts their sum; the closed loop starts as many workers as the highest stage needs and the open loop keeps
    /// <see cref="Concurrency"/> as its cap on outstanding requests.</summary>
    public IReadOnlyList<LoadStage> Stages { get; init; } = [];

    /// <summary>The stages' seconds added up; 0 without stages.</summary>
    [JsonIgnore]
    public long StagesSeconds => Stages.Sum(s => (long)Math.Max(0, s.DurationSeconds));

    /// <summary>Workers the closed loop or waves start: the highest stage's level with stages, else <see cref="Concurrency"/>.</summary>
    [JsonIgnore]
    public int PeakConcurrency => Stages.Count > 0 && Model != LoadModel.OpenLoop ? Stages.Max(s => s.Concurrency ?? 0) : Concurrency;
}

[JsonConverter(typeof(JsonStringEnumConverter<LoadModel>))]
public enum LoadModel
{
    /// <summary>N workers, each sends its next request when the previous one returns (a sliding window).</summary>
    ClosedLoop,

    /// <summary>Requests start at a fixed rate on a schedule; latency counts from the scheduled time (no coordinated omission).</summary>
    OpenLoop,

    /// <summary>Waves of N requests; the next wave starts when the whole wave is done (a barrier), like the seed-000 loader.</summary>
    Waves,

    /// <summary>Every document at once (<c>Task.WhenAll</c> of all writes), as the seed-002 program did. Needs a total count.</summary>
    Unbounded,
}

/// <summary>What the engine does with a throttled response. Every throttled response is counted either way.</summary>
public sealed record ThrottleOptions
{
    /// <summary>Retries of a throttled request before it is given up (the Cosmos SDK's default is 9).</summary>
    public int MaxRetries { get; init; } = 9;

    /// <summary>When one request is throttled, every worker waits out the retry-after before sending more,
    /// so the client stops hammering a partition that has spent its budget.</summary>
    public bool SharedBackoff { get; init; } = true;

    /// <summary>First wait when the service gives no retry-after (Table Storage), doubled per retry with jitter.</summary>
    public double BaseDelayMs { get; init; } = 100;
}
