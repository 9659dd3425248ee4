using System.Text.Json;
using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Live;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Execution;

/// <summary>Saves each second of a run as it closes, pushes it to watchers with the tiles' texts it leads to, and
/// notices a cancel request made from any instance.</summary>
internal sealed partial class RunObserver(
    long runId,
    BenchDbContext db,
    RunUpdatePublisher publisher,
    TimeProvider time,
    CancellationTokenSource stop,
    ILogger logger) : IRunObserver
{
    private readonly HashSet<int> _saved = [];

    // The tiles as the page shows them, from every second so far; known once the run has started.
    private RunLiveState? _tiles;

    public bool CancelRequested { get; private set; }

    public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(start);
        try
        {
            var run = await db.Runs.SingleAsync(r => r.Id == runId, CancellationToken.None);
            run.StartedAt = start.StartedAt;
            run.TargetDescription = start.TargetDescription;
            run.TargetIsModel = start.TargetIsModel;
            run.ProvisionedRequestUnits = start.ProvisionedRequestUnits;
            run.ProvisionedAutoscale = start.ProvisionedAutoscale;
            run.RequestUnitsReported = start.RequestUnitsReported;
            run.EnvironmentJson = JsonSerializer.Serialize(start.Environment, RunPlan.JsonOptions);
            _tiles = RunLiveState.For(run);
            await db.SaveChangesAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The observer never fails a benchmark: the executor records the target and environment at the end.
            LogSaveFailed(logger, ex, runId, -1);
        }
        finally
        {
            db.ChangeTracker.Clear();
        }

        await PublishAsync(() => publisher.StatusAsync(new RunStatusChange(runId, RunStatus.Running, start.TargetDescription), CancellationToken.None));
    }

    public async ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        var entity = RunSecondEntity.From(runId, second, time.GetUtcNow());
        _tiles?.Add([entity]);
        try
        {
            db.RunSeconds.Add(entity);
            await db.SaveChangesAsync(CancellationToken.None);
            _saved.Add(second.Index);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The run goes on; the executor saves what is missing at the end.
            LogSaveFailed(logger, ex, runId, second.Index);
        }
        finally
        {
            db.ChangeTracker.Clear();
        }

        // The second to its watchers first, then whether to stop: a cancel is seen a query later, a second is not shown later.
        var tiles = _tiles is null ? null : RunTileTexts.Of(_tiles, RunStatus.Running);
        await PublishAsync(() => publisher.SecondAsync(entity, tiles, CancellationToken.None));
        try
        {
            var state = await db.Runs.Where(r => r.Id == runId).Select(r => new { r.CancelRequestedAt, r.Status }).SingleAsync(CancellationToken.None);
            CheckCancelRequest(state.CancelRequestedAt);
            if (state.Status != RunStatus.Running)
            {
                // Another instance gave this agent up for lost and closed the run: it stops rather than load the target unseen.
                await stop.CancelAsync();
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Asked again at the next second.
            LogSaveFailed(logger, ex, runId, second.Index);
        }
    }

    /// <summary>Whether saving a change of the run's slow requests failed: the executor then saves the run's final set.</summary>
    public bool SlowRequestsIncomplete { get; private set; }

    public async ValueTask OnSlowRequestsAsync(SlowRequestChange change, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(change);
        try
        {
            if (change.Removed.Count > 0)
            {
                var removed = change.Removed.ToList();
                await db.RunDiagnostics.Where(d => d.RunId == runId && d.Shard == 0 && removed.Contains(d.Number)).ExecuteDeleteAsync(CancellationToken.None);
            }

            List<RunDiagnosticEntity> added = [.. change.Added.Select(a => RunDiagnosticEntity.From(runId, 0, a.Number, a.Request))];
            db.RunDiagnostics.AddRange(added);
            await db.SaveChangesAsync(CancellationToken.None);
            publisher.SlowRequestsSaved(runId, 0, added, change.Removed);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Diagnostics never fail a run, nor change a figure: the executor saves the run's final set at the end.
            SlowRequestsIncomplete = true;
            LogDiagnosticsSaveFailed(logger, ex, runId);
        }
        finally
        {
            db.ChangeTracker.Clear();
        }
    }

    /// <summary>Seconds the run reported that are not saved yet (after a failed save).</summary>
    public IEnumerable<SecondSnapshot> Unsaved(IEnumerable<SecondSnapshot> seconds) => seconds.Where(s => !_saved.Contains(s.Index));

    private void CheckCancelRequest(DateTimeOffset? requestedAt)
    {
        if (requestedAt is not null && !CancelRequested)
        {
            CancelRequested = true;
            stop.Cancel();
        }
    }

    private async Task PublishAsync(Func<Task> send)
    {
        try
        {
            await send();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Watchers catch up from the database when they reconnect; the run never fails for them.
            LogPublishFailed(logger, ex, runId);
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Run {RunId}: saving second {Index} failed (-1: the start); it is saved at the end of the run")]
    private static partial void LogSaveFailed(ILogger logger, Exception exception, long runId, int index);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}: saving the diagnostics of its slowest requests failed; they are saved again at the end of the run")]
    private static partial void LogDiagnosticsSaveFailed(ILogger logger, Exception exception, long runId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}: pushing an update to watchers failed")]
    private static partial void LogPublishFailed(ILogger logger, Exception exception, long runId);
}
