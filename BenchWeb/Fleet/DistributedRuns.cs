using System.Globalization;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Live;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Execution;

namespace BenchWeb.Fleet;

/// <summary>
/// A run spread over agents, made one run: its seconds are its shards' seconds added up, second by second (they share a
/// start instant), its latency percentiles come from their histograms merged, and it ends when its last shard ends, with
/// a status that says what happened to each.
/// </summary>
/// <remarks>
/// Any agent may write a run second (whichever completes it) or end the run (whichever shard ends last, or the instance
/// that finds an agent lost), so each of those happens under a lock on the run held in the database (PostgreSQL's
/// transaction-scoped advisory lock). While the run goes on, a run second is written once every running shard has
/// measured it; at the end every run second is made again from all the shards' seconds, so the run's sums always equal
/// its shards' sums, whichever of them lagged or died.
/// </remarks>
public sealed class DistributedRuns(
    IDbContextFactory<BenchDbContext> databases,
    RunUpdatePublisher publisher,
    TimeProvider time,
    Microsoft.Extensions.Options.IOptions<BenchEngine.Metrics.ClientLimits> clientLimits)
{
    /// <summary>After a shard saved its second (<paramref name="saved"/>): writes and pushes the run's second when every
    /// running shard has it. Returns the run second written, or null when some shard has not measured it yet or the run has
    /// ended.</summary>
    /// <remarks>Every watcher waits for this second, so it costs few round trips: one query for whether it is written and
    /// how many shards should have it, the other shards' seconds only when there are other shards, and the seconds before
    /// it only when the tiles lack some (written meanwhile by the other agents).</remarks>
    public async Task<RunSecondEntity?> CompleteSecondAsync(RunShardSecondEntity saved, RunLiveState? tiles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(saved);
        var (runId, index) = (saved.RunId, saved.Index);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        await LockAsync(db, runId, cancellationToken);
        var facts = await db.Runs.Where(r => r.Id == runId).Select(r => new
        {
            Ended = r.Status != RunStatus.Queued && r.Status != RunStatus.Running,
            Written = db.RunSeconds.Any(s => s.RunId == runId && s.Index == index),
            Shards = db.RunShards.Count(s => s.RunId == runId),
            Expected = db.RunShards.Count(s => s.RunId == runId && s.Status == RunStatus.Running && s.OffsetSeconds <= index),
        }).SingleOrDefaultAsync(cancellationToken);
        // An ended run's seconds were made from its shards' when it ended, and its summary from them: an agent given up for
        // lost that saves a second later changes neither (the second stays the shard's).
        if (facts is null || facts.Ended || facts.Written)
        {
            return null;
        }

        List<RunShardSecondEntity> seconds = facts.Shards > 1
            ? await db.RunShardSeconds.AsNoTracking().Where(s => s.RunId == runId && s.Index == index && s.Shard != saved.Shard).ToListAsync(cancellationToken)
            : [];
        seconds.Add(saved);
        if (seconds.Count < facts.Expected)
        {
            return null;
        }

        var second = Combine(runId, index, seconds);
        db.RunSeconds.Add(second);
        await db.SaveChangesAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);

        if (tiles is not null)
        {
            var known = tiles.LastIndex;
            if (known < index - 1)
            {
                tiles.Add(await db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId && s.Index > known && s.Index < index).ToListAsync(cancellationToken));
            }

            tiles.Add([second]);
        }

        await publisher.TryAsync(p => p.SecondAsync(second, tiles is null ? null : RunTileTexts.Of(tiles, RunStatus.Running), CancellationToken.None), runId);
        return second;
    }

    /// <summary>Ends the run once none of its shards is queued or running: its seconds made again from every shard's,
    /// its summary from their merged histograms, and its status from theirs. Does nothing while a shard is active or
    /// when the run has already ended.</summary>
    public async Task FinishIfDoneAsync(long runId, CancellationToken cancellationToken)
    {
        RunStatusChange? change = null;
        await using (var db = await databases.CreateDbContextAsync(cancellationToken))
        {
            await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
            await LockAsync(db, runId, cancellationToken);
            var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
            var shards = await db.RunShards.Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync(cancellationToken);
            if (run is null || !run.IsActive || shards.Count == 0 || shards.Any(s => s.IsActive))
            {
                return;
            }

            await db.RunSeconds.Where(s => s.RunId == runId).ExecuteDeleteAsync(cancellationToken);
            var shardSeconds = await db.RunShardSeconds.AsNoTracking().Where(s => s.RunId == runId).ToListAsync(cancellationToken);
            var seconds = shardSeconds.GroupBy(s => s.Index).OrderBy(g => g.Key).Select(g => Combine(runId, g.Key, [.. g])).ToList();
            db.RunSeconds.AddRange(Contiguous(runId, seconds, run.StartAt));

            // The figures are those of the seconds a shard measured: a second no agent was running is not the target's
            // (its elapsed time counts from the common start all the same, as its average throughput does).
            var options = PartialSummary.OptionsOf(run, clientLimits.Value);
            var snapshots = seconds.Select(s => s.ToSnapshot()).ToList();
            var summary = SummaryCalculator.Calculate(snapshots, Latency(shards, shardSeconds), options);
            // A run that measured nothing (every shard failed opening its target) lists no figures: zeros would read as a measurement.
            if (seconds.Count > 0)
            {
                run.SummaryJson = JsonSerializer.Serialize(summary, RunPlan.JsonOptions);
                run.ElapsedSeconds = summary.Elapsed.TotalSeconds;
                run.AverageThroughput = summary.AverageThroughput;
                run.P99LatencyMs = summary.Latency.Count > 0 ? summary.Latency.P99Ms : null;
                run.ThrottledFraction = summary.ThrottledFraction;
            }

            var (status, reason, stopReason) = Outcome(run, shards);
            run.Status = status;
            run.FailureReason = reason;
            run.StopReason = stopReason;
            run.FirstError = shards.Select(s => s.FirstError).FirstOrDefault(e => e is not null);
            run.AbandonedRequests = shards.Sum(s => s.AbandonedRequests);
            run.StartedAt ??= shards.Min(s => s.StartedAt);
            run.EndedAt = time.GetUtcNow();
            await RunExecutor.JudgeAsync(db, run, TryRead(run.PlanJson), status, summary);
            await db.SaveChangesAsync(CancellationToken.None);
            await transaction.CommitAsync(CancellationToken.None);
            change = new RunStatusChange(runId, status, reason ?? stopReason);
        }

        await publisher.TryAsync(p => p.StatusAsync(change, CancellationToken.None), runId);
    }

    /// <summary>How the run ended, from how its shards did: a failed shard fails the run; a cancel cancels it; a lost
    /// agent interrupts it (the others' figures are kept); an auto-stop stops it; otherwise it completed.</summary>
    internal static (RunStatus Status, string? Reason, string StopReason) Outcome(RunEntity run, IReadOnlyList<RunShardEntity> shards)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(shards);
        string Name(RunShardEntity s) => string.Create(CultureInfo.InvariantCulture, $"agent {s.AgentName} (shard {s.Index + 1} of {shards.Count})");
        var stopReasons = shards.Select(s => s.StopReason).Where(r => r is { Length: > 0 }).Distinct(StringComparer.Ordinal).ToList();
        var stopReason = stopReasons.Count == 1 ? stopReasons[0]!
            : string.Join("; ", shards.Where(s => s.StopReason is { Length: > 0 }).Select(s => $"{Name(s)}: {s.StopReason}"));

        if (shards.Where(s => s.Status == RunStatus.Failed).ToList() is { Count: > 0 } failed)
        {
            return (RunStatus.Failed, string.Join(" ", failed.Select(s => $"{Capitalized(Name(s))} failed: {s.FailureReason}")), stopReason);
        }

        if (run.CancelRequestedAt is not null && shards.Any(s => s.Status == RunStatus.Cancelled))
        {
            return (RunStatus.Cancelled, null, stopReason.Length > 0 ? stopReason : "cancelled by the user");
        }

        if (shards.Where(s => s.Status is RunStatus.Interrupted or RunStatus.Cancelled).ToList() is { Count: > 0 } interrupted)
        {
            var finished = shards.Count - interrupted.Count;
            var reason = string.Join(" ", interrupted.Select(s => $"{Capitalized(Name(s))}: {s.FailureReason}"))
                + string.Create(CultureInfo.InvariantCulture, $" {(finished == 0 ? "No shard" : finished == 1 ? "The other shard" : $"The other {finished} shards")} finished; the run's figures are what every shard saved.");
            return (RunStatus.Interrupted, reason, stopReason.Length > 0 ? stopReason : "an agent stopped");
        }

        if (shards.Any(s => s.Status == RunStatus.Stopped))
        {
            return (RunStatus.Stopped, null, stopReason);
        }

        return (RunStatus.Completed, null, stopReason);
    }

    /// <summary>Every operation's latency: each shard that ended keeps a histogram of its whole run; one that did not (its
    /// agent died) left the histograms of the seconds it saved, which hold every operation those seconds counted.</summary>
    private static LatencyDistribution Latency(IReadOnlyList<RunShardEntity> shards, IReadOnlyList<RunShardSecondEntity> seconds)
    {
        var whole = shards.Where(s => s.LatencyHistogram is not null).Select(s => s.Index).ToHashSet();
        return ShardMerge.Merge(shards.Select(s => s.LatencyHistogram).Concat(seconds.Where(s => !whole.Contains(s.Shard)).Select(s => s.LatencyHistogram)));
    }

    /// <summary>The run's seconds numbered 0…n−1 with none missing, as a run on one agent has them. The shards' seconds are
    /// placed from the common start, so a second no shard measured is a second of the run all the same: before the first
    /// shard began (every agent joined late, on a busy machine) or between a shard that ended and one that joined later.
    /// Such a second is there, empty (nothing sent, answered or in flight), so that the run's seconds cover its elapsed time
    /// (which counts from the common start) and every second its slow requests name, and its export imports again.
    /// The measured seconds are kept as they are.</summary>
    /// <param name="runId">The run.</param>
    /// <param name="measured">The seconds some shard measured, in order of their index.</param>
    /// <param name="startAt">The run's common start: an empty second closed one second after its own start.</param>
    internal static List<RunSecondEntity> Contiguous(long runId, IReadOnlyList<RunSecondEntity> measured, DateTimeOffset? startAt)
    {
        ArgumentNullException.ThrowIfNull(measured);
        var seconds = new List<RunSecondEntity>(measured.Count == 0 ? 0 : measured[^1].Index + 1);
        foreach (var second in measured)
        {
            for (var missing = seconds.Count; missing < second.Index; missing++)
            {
                var elapsed = TimeSpan.FromSeconds(missing + 1);
                seconds.Add(RunSecondEntity.From(runId, new SecondSnapshot { Index = missing, Elapsed = elapsed, Duration = TimeSpan.FromSeconds(1) },
                    startAt is { } start ? start + elapsed : second.ClosedAt));
            }

            seconds.Add(second);
        }

        return seconds;
    }

    /// <summary>A run second from the shards' seconds that fall in it.</summary>
    private static RunSecondEntity Combine(long runId, int index, IReadOnlyList<RunShardSecondEntity> seconds)
    {
        var snapshots = seconds.Select(s => JsonSerializer.Deserialize<SecondSnapshot>(s.SnapshotJson, RunPlan.JsonOptions)! with { LatencyHistogram = s.LatencyHistogram }).ToList();
        return RunSecondEntity.From(runId, ShardMerge.CombineSecond(index, snapshots), seconds.Max(s => s.ClosedAt));
    }

    // One writer per run at a time, across every instance: PostgreSQL's advisory lock, released with the transaction.
    // SQLite (one instance) serialises writers on its own.
    private static async Task LockAsync(BenchDbContext db, long runId, CancellationToken cancellationToken)
    {
        if (db.Database.IsNpgsql())
        {
            await db.Database.ExecuteSqlAsync($"SELECT pg_advisory_xact_lock({runId})", cancellationToken);
        }
    }

    private static string Capitalized(string text) => char.ToUpperInvariant(text[0]) + text[1..];

    private static RunPlan? TryRead(string json)
    {
        try
        {
            return RunPlan.FromJson(json);
        }
        catch (RunPlanValidationException)
        {
            return null;
        }
    }


}
