using System.Text.Json.Serialization;
using BenchEngine.Diagnostics;
using BenchEngine.Metrics;

namespace BenchEngine.Running;

/// <summary>The end of a run: how it ended, every second it measured, and its summary.
/// A failed or cancelled run keeps everything it measured.</summary>
public sealed record RunResult
{
    public RunStatus Status { get; init; }

    /// <summary>Why it stopped: "reached 10,000 documents", "duration of 60 s reached", an auto-stop rule, a cancellation.</summary>
    public string StopReason { get; init; } = "";

    /// <summary>For <see cref="RunStatus.Failed"/>: what went wrong (never a secret).</summary>
    public string? FailureReason { get; init; }

    /// <summary>The first error a write returned, when any did.</summary>
    public string? FirstError { get; init; }

    public string TargetDescription { get; init; } = "";

    public bool TargetIsModel { get; init; }

    public DateTimeOffset StartedAt { get; init; }

    public ClientEnvironment Environment { get; init; } = new();

    public IReadOnlyList<SecondSnapshot> Seconds { get; init; } = [];

    public RunSummary Summary { get; init; } = new();

    /// <summary>Latency of every successful operation (the distribution the summary's percentiles come from), for a
    /// host that merges runs measured on several machines. Not written to JSON.</summary>
    [JsonIgnore]
    public LatencyDistribution? Latency { get; init; }

    /// <summary>Requests still outstanding when the stop grace period ran out; whether they landed is unknown.</summary>
    public long AbandonedRequests { get; init; }

    /// <summary>The run's slowest requests with their diagnostics (<see cref="RunPlan.Diagnostics"/>), in the order of their
    /// seconds.</summary>
    public IReadOnlyList<SlowRequest> SlowRequests { get; init; } = [];

    /// <summary>Requests that were among their second's slowest but not kept: the run's bounds were full of slower ones.</summary>
    public int SlowRequestsNotKept { get; init; }
}

[JsonConverter(typeof(JsonStringEnumConverter<RunStatus>))]
public enum RunStatus
{
    Queued,
    Running,
    Completed,
    Cancelled,
    Failed,
    Interrupted,
    Stopped,
}
