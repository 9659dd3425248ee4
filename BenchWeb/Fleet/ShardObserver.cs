using System.Text.Json;
using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Execution;
using BenchWeb.Live;

namespace BenchWeb.Fleet;

/// <summary>Saves each second of one shard as it closes (placed in the run's second it falls in), has the run's second
/// written once every running shard has it, and stops the shard when the run is cancelled or the shard was marked
/// interrupted by another instance.</summary>
internal sealed partial class ShardObserver(
    RunEntity run,
    RunShardEntity shard,
    IDbContextFactory<BenchDbContext> databases,
    DistributedRuns distributed,
    Live.RunUpdatePublisher publisher,
    TimeProvider time,
    CancellationTokenSource stop,
    ILogger logger) : IRunObserver
{
    private readonly HashSet<int> _saved = [];
    private readonly RunLiveState _tiles = RunLiveState.For(run);
    private int? _offset;

    public bool CancelRequested { get; private set; }

    public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(start);
        try
        {
            await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
            var environment = JsonSerializer.Serialize(start.Environment, RunPlan.JsonOptions);
            await db.RunShards.Where(s => s.RunId == run.Id && s.Index == shard.Index).ExecuteUpdateAsync(
                s => s.SetProperty(x => x.TargetDescription, start.TargetDescription).SetProperty(x => x.EnvironmentJson, environment), CancellationToken.None);

            // The run's target figures come from whichever shard opens its target first.
            await db.Runs.Where(r => r.Id == run.Id && r.TargetDescription == null).ExecuteUpdateAsync(s => s
                .SetProperty(r => r.TargetDescription, start.TargetDescription)
                .SetProperty(r => r.TargetIsModel, start.TargetIsModel)
                .SetProperty(r => r.ProvisionedRequestUnits, start.ProvisionedRequestUnits)
                .SetProperty(r => r.ProvisionedAutoscale, start.ProvisionedAutoscale)
                .SetProperty(r => r.RequestUnitsReported, start.RequestUnitsReported)
                .SetProperty(r => r.EnvironmentJson, environment), CancellationToken.None);
            _tiles.ProvisionedRequestUnits ??= start.ProvisionedRequestUnits;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogSaveFailed(logger, ex, run.Id, shard.Index, -1);
        }
    }

    /// <summary>A shard that started late (after the common start; it then stops at the common end) joins the run at the
    /// second it was in: the engine's count, made when its wait for the common start ended. Not measured when the start was
    /// announced (before that wait, which a busy or suspended process may end seconds late), nor when a second arrives, which
    /// may be late (the seconds reach an observer through a hand-off that never waits for it).</summary>
    public ValueTask OnClockStartedAsync(int joinedLateSeconds, CancellationToken cancellationToken)
    {
        _offset = Math.Max(0, joinedLateSeconds);
        return ValueTask.CompletedTask;
    }

    public async ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        var closedAt = time.GetUtcNow();

        // Only if the clock's start was never announced: from when the shard's first second began.
        _offset ??= run.StartAt is { } startAt ? Math.Max(0, (int)Math.Round((closedAt - second.Elapsed - startAt).TotalSeconds)) : 0;
        var index = second.Index + _offset.Value;
        var saved = ToEntity(second, index, closedAt);
        await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
        try
        {
            if (second.Index == 0 && _offset > 0)
            {
                await db.RunShards.Where(s => s.RunId == run.Id && s.Index == shard.Index).ExecuteUpdateAsync(s => s.SetProperty(x => x.OffsetSeconds, _offset.Value), CancellationToken.None);
            }

            db.RunShardSeconds.Add(saved);
            await db.SaveChangesAsync(CancellationToken.None);
            _saved.Add(second.Index);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The shard goes on; what is missing is saved at its end.
            LogSaveFailed(logger, ex, run.Id, shard.Index, second.Index);
            return;
        }
        finally
        {
            db.ChangeTracker.Clear();
        }

        // The run's second first: it is what every watcher waits for. Then the shard's own, then whether to stop.
        try
        {
            await distributed.CompleteSecondAsync(saved, _tiles, CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The run's seconds are all made again when it ends.
            LogSaveFailed(logger, ex, run.Id, shard.Index, second.Index);
        }

        await publisher.TryAsync(p => p.ShardSecondAsync(new Live.ShardSecond(run.Id, shard.Index, shard.AgentName, index, second.Duration.TotalSeconds, second.Ok,
            second.Throttled, second.Errors, second.RequestUnits, second.LatencyP50Ms, second.LatencyP99Ms, second.ClientCpuPercent), CancellationToken.None), run.Id);
        try
        {
            var state = await db.Runs.Where(r => r.Id == run.Id).Select(r => new { r.CancelRequestedAt, Shard = db.RunShards.Single(s => s.RunId == r.Id && s.Index == shard.Index).Status })
                .SingleAsync(CancellationToken.None);
            if (state.CancelRequestedAt is not null && !CancelRequested)
            {
                CancelRequested = true;
                await stop.CancelAsync();
            }
            else if (state.Shard != RunStatus.Running)
            {
                // Another instance gave this agent up for lost: it stops rather than load the target unseen.
                await stop.CancelAsync();
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A cancel is seen at the next second.
            LogSaveFailed(logger, ex, run.Id, shard.Index, second.Index);
        }
    }

    private bool _slowRequestsIncomplete;

    /// <summary>Saves the shard's slow requests as its seconds are delivered, placed in the run's seconds; a failure is logged,
    /// and the shard's final set saved at its end (<see cref="SaveSlowRequestsAsync"/>).</summary>
    public async ValueTask OnSlowRequestsAsync(SlowRequestChange change, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(change);
        try
        {
            await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
            if (change.Removed.Count > 0)
            {
                var removed = change.Removed.ToList();
                await db.RunDiagnostics.Where(d => d.RunId == run.Id && d.Shard == shard.Index && removed.Contains(d.Number)).ExecuteDeleteAsync(CancellationToken.None);
            }

            List<RunDiagnosticEntity> added = [.. change.Added.Select(a => RunDiagnosticEntity.From(run.Id, shard.Index, a.Number, WithAgent(a.Request), _offset ?? 0))];
            db.RunDiagnostics.AddRange(added);
            await db.SaveChangesAsync(CancellationToken.None);
            publisher.SlowRequestsSaved(run.Id, shard.Index, added, change.Removed);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _slowRequestsIncomplete = true;
            LogDiagnosticsSaveFailed(logger, ex, run.Id, shard.Index);
        }
    }

    /// <summary>When a save of its slow requests failed during the shard: the engine's final set in place of what was saved.
    /// A failure is logged; diagnostics never fail a shard.</summary>
    public async Task SaveSlowRequestsAsync(IReadOnlyList<SlowRequest> requests)
    {
        if (!_slowRequestsIncomplete)
        {
            return;
        }

        try
        {
            await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
            await db.RunDiagnostics.Where(d => d.RunId == run.Id && d.Shard == shard.Index).ExecuteDeleteAsync(CancellationToken.None);
            db.RunDiagnostics.AddRange(requests.Select((request, number) => RunDiagnosticEntity.From(run.Id, shard.Index, number, WithAgent(request), _offset ?? 0)));
            await db.SaveChangesAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogDiagnosticsSaveFailed(logger, ex, run.Id, shard.Index);
        }
    }

    // Which agent measured it, beside the target: the run's entries come from every shard.
    private SlowRequest WithAgent(SlowRequest request)
    {
        var target = $"{request.Target} · agent {shard.AgentName}";
        return request with { Target = target.Length <= SlowRequest.MaxTargetLength ? target : target[..SlowRequest.MaxTargetLength] };
    }

    /// <summary>Saves the seconds the shard measured that are not saved yet (after a failed save); the caller's context saves.</summary>
    public async Task SaveUnsavedAsync(BenchDbContext db, IEnumerable<SecondSnapshot> seconds)
    {
        var offset = _offset ?? 0;
        foreach (var missing in seconds.Where(s => !_saved.Contains(s.Index)))
        {
            db.RunShardSeconds.Add(ToEntity(missing, missing.Index + offset, time.GetUtcNow()));
        }

        await db.SaveChangesAsync(CancellationToken.None);
    }

    private RunShardSecondEntity ToEntity(SecondSnapshot second, int index, DateTimeOffset closedAt) => new()
    {
        RunId = run.Id,
        Shard = shard.Index,
        Index = index,
        SnapshotJson = JsonSerializer.Serialize(second, RunPlan.JsonOptions),
        LatencyHistogram = second.LatencyHistogram,
        ClosedAt = closedAt,
    };

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}, shard {Shard}: saving the diagnostics of its slowest requests failed; its figures are unaffected")]
    private static partial void LogDiagnosticsSaveFailed(ILogger logger, Exception exception, long runId, int shard);

    [LoggerMessage(Level = LogLevel.Error, Message = "Run {RunId}, shard {Shard}: saving second {Index} failed (-1: the start)")]
    private static partial void LogSaveFailed(ILogger logger, Exception exception, long runId, int shard, int index);
}
