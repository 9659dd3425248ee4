using System.Globalization;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Live;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Fleet;

/// <summary>Which runs have nobody executing them: those whose agent stopped heartbeating. Each instance looks at every
/// heartbeat; a run on one agent whose agent is gone ends Interrupted with the seconds it saved; a shard whose agent is
/// gone ends Interrupted while the others go on, and the run says so when they end.</summary>
public sealed partial class RunOwnership(
    IDbContextFactory<BenchDbContext> databases,
    AgentDirectory agents,
    DistributedRuns distributed,
    RunUpdatePublisher publisher,
    IRunJobClient jobs,
    TimeProvider time,
    Microsoft.Extensions.Options.IOptions<BenchEngine.Metrics.ClientLimits> clientLimits,
    ILogger<RunOwnership> logger)
{
    public async Task InterruptRunsOfGoneAgentsAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var running = await db.Runs.Where(r => r.Status == RunStatus.Running && r.ShardCount == 1 && r.AgentId != null).ToListAsync(cancellationToken);
        var shards = await db.RunShards.Where(s => s.Status == RunStatus.Running || s.Status == RunStatus.Queued).ToListAsync(cancellationToken);
        var ids = running.Select(r => r.AgentId!).Concat(shards.Select(s => s.AgentId)).Distinct(StringComparer.Ordinal).ToList();
        if (ids.Count == 0)
        {
            return;
        }

        var gone = await agents.GoneAsync(db, ids, cancellationToken);
        if (gone.Count == 0)
        {
            return;
        }

        var names = await db.Agents.AsNoTracking().Where(a => gone.Contains(a.Id)).ToDictionaryAsync(a => a.Id, cancellationToken);
        string Why(string agentId) => names.TryGetValue(agentId, out var agent)
            ? string.Create(CultureInfo.InvariantCulture, $"its agent {agent.Name} {(agent.StoppedAt is { } stopped ? $"stopped at {stopped:u}" : $"stopped heartbeating (last heard at {agent.LastHeartbeatAt:u})")}; the seconds saved until then are kept.")
            : "its agent is unknown to this database; the seconds saved until then are kept.";

        var changes = new List<RunStatusChange>();
        foreach (var run in running.Where(r => gone.Contains(r.AgentId!)))
        {
            await PartialSummary.FillAsync(db, run, clientLimits.Value, cancellationToken);
            run.Status = RunStatus.Interrupted;
            run.FailureReason = "Interrupted: " + Why(run.AgentId!);
            run.StopReason = "its agent stopped";
            run.EndedAt = time.GetUtcNow();
            changes.Add(new RunStatusChange(run.Id, run.Status, run.FailureReason));
            LogInterrupted(logger, run.Id, run.AgentId!);
        }

        var lostShards = shards.Where(s => gone.Contains(s.AgentId)).ToList();
        foreach (var shard in lostShards)
        {
            shard.FailureReason = shard.Status == RunStatus.Queued
                ? "never started: " + Why(shard.AgentId).Replace("; the seconds saved until then are kept.", ".", StringComparison.Ordinal)
                : "interrupted: " + Why(shard.AgentId);
            shard.Status = RunStatus.Interrupted;
            shard.EndedAt = time.GetUtcNow();
            LogInterrupted(logger, shard.RunId, shard.AgentId);
        }

        await db.SaveChangesAsync(cancellationToken);

        // Their jobs end too: the scheduler would show a dead agent's job executing until its storage handed it to another
        // server (which would find it interrupted and do nothing), or for ever when no other server takes its queue.
        foreach (var (jobId, reason) in running.Where(r => r.Status == RunStatus.Interrupted && r.JobId is not null).Select(r => (r.JobId!, r.FailureReason!))
                     .Concat(lostShards.Where(s => s.JobId is not null).Select(s => (s.JobId!, s.FailureReason!))))
        {
            await jobs.AbandonAsync(jobId, reason, CancellationToken.None);
        }

        foreach (var change in changes)
        {
            await publisher.StatusAsync(change, CancellationToken.None);
        }

        foreach (var runId in lostShards.Select(s => s.RunId).Distinct())
        {
            await distributed.FinishIfDoneAsync(runId, CancellationToken.None);
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}: its agent {AgentId} is gone; marked interrupted")]
    private static partial void LogInterrupted(ILogger logger, long runId, string agentId);
}
