using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Fleet;

/// <summary>One agent's part of a run spread over agents, as the run page and the API show it: its shard's number (from
/// 1), the agent, how the shard stands, the second of the run it joined at, its sums over its saved seconds, and its p99
/// over its own operations (null until it ended with its histogram).</summary>
public sealed record RunAgentRow(
    int Shard,
    string Agent,
    RunStatus Status,
    int OffsetSeconds,
    long Ok,
    long Throttled,
    long Errors,
    double RequestUnits,
    int Seconds,
    double Throughput,
    double? P99LatencyMs,
    double MaxClientCpuPercent,
    string? Reason)
{
    /// <summary>The agent's id (random per process start): what tells apart two agents of the same name.</summary>
    public string? AgentId { get; init; }
}

/// <summary>The per-agent rows of a run spread over agents, from its shards and their saved seconds. Their sums are the
/// run's: the run's seconds are made from the same rows.</summary>
public static class RunAgentBreakdown
{
    public static async Task<IReadOnlyList<RunAgentRow>> ForRunAsync(BenchDbContext db, long runId, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var shards = await db.RunShards.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync(cancellationToken);
        if (shards.Count == 0)
        {
            return [];
        }

        var seconds = (await db.RunShardSeconds.AsNoTracking().Where(s => s.RunId == runId).Select(s => new { s.Shard, s.SnapshotJson }).ToListAsync(cancellationToken))
            .ToLookup(s => s.Shard, s => JsonSerializer.Deserialize<SecondSnapshot>(s.SnapshotJson, RunPlan.JsonOptions)!);
        return [.. shards.Select(shard =>
        {
            var own = seconds[shard.Index].ToList();
            var elapsed = own.Sum(s => s.Duration.TotalSeconds);
            var totals = SecondTotals.Sum(own);
            double? p99 = shard.LatencyHistogram is { Length: > 0 } histogram ? LatencyDistribution.Decode(histogram).MillisecondsAtPercentile(99) : null;
            return new RunAgentRow(
                shard.Index + 1,
                shard.AgentName,
                shard.Status,
                shard.OffsetSeconds,
                totals.Ok,
                totals.Throttled,
                totals.Errors,
                totals.RequestUnits,
                own.Count,
                totals.Throughput(elapsed),
                p99,
                own.Count == 0 ? 0 : own.Max(s => s.ClientCpuPercent),
                shard.FailureReason)
            { AgentId = shard.AgentId };
        })];
    }
}
