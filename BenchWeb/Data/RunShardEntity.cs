using BenchEngine.Running;

namespace BenchWeb.Data;

/// <summary>One agent's share of a run spread over several agents: which agent executes it, how it ended, and what it
/// measured, including its latency histogram (HdrHistogram's compressed encoding) so the run's percentiles come from
/// all its operations, never from averaged percentiles.</summary>
public sealed class RunShardEntity
{
    public long RunId { get; set; }

    /// <summary>0-based shard number.</summary>
    public int Index { get; set; }

    public required string AgentId { get; set; }

    public required string AgentName { get; set; }

    public string? JobId { get; set; }

    public RunStatus Status { get; set; }

    public DateTimeOffset? StartedAt { get; set; }

    public DateTimeOffset? EndedAt { get; set; }

    /// <summary>Whole seconds between the run's common start and this shard's own start (0 unless its agent was late):
    /// the shard's second <c>i</c> is the run's second <c>i + Offset</c>.</summary>
    public int OffsetSeconds { get; set; }

    public string? TargetDescription { get; set; }

    public string? EnvironmentJson { get; set; }

    public string? SummaryJson { get; set; }

    /// <summary>Latency of every successful operation of the shard (HdrHistogram, compressed), once it ended.</summary>
    public byte[]? LatencyHistogram { get; set; }

    public string? StopReason { get; set; }

    public string? FailureReason { get; set; }

    public string? FirstError { get; set; }

    public long AbandonedRequests { get; set; }

    public bool IsActive => Status is RunStatus.Queued or RunStatus.Running;
}

/// <summary>One closed second of one shard, as its agent measured it: the engine's snapshot as JSON and that second's
/// latency histogram. The run's own seconds (<see cref="RunSecondEntity"/>) are made from these, second by second.</summary>
public sealed class RunShardSecondEntity
{
    public long RunId { get; set; }

    public int Shard { get; set; }

    /// <summary>The run's second this one falls in (the shard's own second plus its offset).</summary>
    public int Index { get; set; }

    public required string SnapshotJson { get; set; }

    public byte[]? LatencyHistogram { get; set; }

    public DateTimeOffset ClosedAt { get; set; }
}
