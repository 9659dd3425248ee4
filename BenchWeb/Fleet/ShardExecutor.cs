using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Live;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Fleet;

/// <summary>What the job of one shard of a run spread over agents does, on the agent it was given to: run its share of
/// the plan from the run's common start, save each of its seconds (and help write the run's), notice a cancel or its
/// own interruption, record how it ended, and end the run when it is the last shard.</summary>
public sealed partial class ShardExecutor(
    IDbContextFactory<BenchDbContext> databases,
    RunExecutor runs,
    DistributedRuns distributed,
    RunUpdatePublisher publisher,
    ExecutingRuns executing,
    AgentIdentity agent,
    TimeProvider time,
    IHostApplicationLifetime lifetime,
    ILogger<ShardExecutor> logger)
{
    public async Task ExecuteAsync(long runId, int index, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
        var shard = await db.RunShards.SingleOrDefaultAsync(s => s.RunId == runId && s.Index == index, cancellationToken);
        if (run is null || shard is null)
        {
            LogMissing(logger, runId, index);
            return;
        }

        if (shard.Status == RunStatus.Running)
        {
            // Never executed twice: the target would be loaded twice.
            await EndShardAsync(db, shard, RunStatus.Interrupted, "Its job started again while the shard was marked running (an earlier attempt died); it was not re-run.", null);
            return;
        }

        if (shard.Status != RunStatus.Queued)
        {
            return;
        }

        if (run.CancelRequestedAt is not null || !run.IsActive)
        {
            await EndShardAsync(db, shard, RunStatus.Cancelled, null, "cancelled before it started");
            return;
        }

        var now = time.GetUtcNow();
        var started = await db.RunShards.Where(s => s.RunId == runId && s.Index == index && s.Status == RunStatus.Queued).ExecuteUpdateAsync(
            s => s.SetProperty(x => x.Status, RunStatus.Running).SetProperty(x => x.StartedAt, now).SetProperty(x => x.AgentId, agent.Id).SetProperty(x => x.AgentName, agent.Name),
            cancellationToken);
        if (started == 0)
        {
            return;
        }

        // The first shard to start starts the run.
        if (await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Queued).ExecuteUpdateAsync(
                s => s.SetProperty(r => r.Status, RunStatus.Running).SetProperty(r => r.StartedAt, run.StartAt ?? now), CancellationToken.None) == 1)
        {
            await publisher.TryAsync(p => p.StatusAsync(new RunStatusChange(runId, RunStatus.Running, null), CancellationToken.None), runId);
        }

        try
        {
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, lifetime.ApplicationStopping);
            using (executing.Add(runId, stop))
            {
                await ExecuteStartedAsync(run, index, stop);
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogShardCrashed(logger, ex, runId, index);
            db.ChangeTracker.Clear();
            if (await db.RunShards.SingleAsync(s => s.RunId == runId && s.Index == index, CancellationToken.None) is { IsActive: true } crashed)
            {
                await EndShardAsync(db, crashed, RunStatus.Failed, $"{ex.GetType().Name}: {ex.Message}", null);
            }
        }
    }

    private async Task ExecuteStartedAsync(RunEntity run, int index, CancellationTokenSource stop)
    {
        await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
        var shard = await db.RunShards.SingleAsync(s => s.RunId == run.Id && s.Index == index, CancellationToken.None);
        var observer = new ShardObserver(run, shard, databases, distributed, publisher, time, stop, logger);
        var (result, _, failure) = await runs.RunEngineAsync(run, shard, observer, stop.Token);

        db.ChangeTracker.Clear();
        shard = await db.RunShards.SingleAsync(s => s.RunId == run.Id && s.Index == index, CancellationToken.None);
        if (!shard.IsActive)
        {
            // Marked interrupted meanwhile (its agent was thought lost): that stands, but what it measured is kept.
            await observer.SaveUnsavedAsync(db, result?.Seconds ?? []);
            await distributed.FinishIfDoneAsync(run.Id, CancellationToken.None);
            return;
        }

        if (result is null)
        {
            await EndShardAsync(db, shard, RunStatus.Failed, failure, null);
            return;
        }

        await observer.SaveUnsavedAsync(db, result.Seconds);
        await observer.SaveSlowRequestsAsync(result.SlowRequests);
        shard.SummaryJson = JsonSerializer.Serialize(result.Summary, RunPlan.JsonOptions);
        shard.LatencyHistogram = result.Latency?.Encode();
        shard.FirstError = result.FirstError;
        shard.AbandonedRequests = result.AbandonedRequests;
        shard.TargetDescription = result.TargetDescription;
        shard.EnvironmentJson ??= JsonSerializer.Serialize(result.Environment, RunPlan.JsonOptions);
        var status = result.Status;
        var reason = result.FailureReason;
        if (status == RunStatus.Cancelled && !observer.CancelRequested && lifetime.ApplicationStopping.IsCancellationRequested)
        {
            status = RunStatus.Interrupted;
            reason = $"Its agent {agent.Name} stopped while the shard was running; the seconds saved until then are kept.";
        }

        await EndShardAsync(db, shard, status, reason, result.StopReason);
    }

    private async Task EndShardAsync(BenchDbContext db, RunShardEntity shard, RunStatus status, string? reason, string? stopReason)
    {
        shard.Status = status;
        shard.FailureReason = reason;
        shard.StopReason = stopReason ?? shard.StopReason;
        shard.EndedAt = time.GetUtcNow();
        await db.SaveChangesAsync(CancellationToken.None);
        await distributed.FinishIfDoneAsync(shard.RunId, CancellationToken.None);
    }


    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId} or its shard {Shard} does not exist; its job does nothing")]
    private static partial void LogMissing(ILogger logger, long runId, int shard);

    [LoggerMessage(Level = LogLevel.Error, Message = "Run {RunId}, shard {Shard} failed outside the engine")]
    private static partial void LogShardCrashed(ILogger logger, Exception exception, long runId, int shard);

}
