using BenchEngine.Running;

namespace BenchWeb.Live;

/// <summary>A run changed status (queued, started, ended); watchers reload its row.</summary>
public sealed record RunStatusChange(long RunId, RunStatus Status, string? Message);

/// <summary>One agent's second of a run spread over agents: its figures as it measured them, in the run's second it falls in.</summary>
public sealed record ShardSecond(
    long RunId,
    int Shard,
    string Agent,
    int Index,
    double DurationSeconds,
    long Ok,
    long Throttled,
    long Errors,
    double RequestUnits,
    double? LatencyP50Ms,
    double? LatencyP99Ms,
    double ClientCpuPercent);
