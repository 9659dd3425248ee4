using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Hubs;
using BenchWeb.Jobs;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Runs;

/// <summary>Launches and cancels runs: the row first (the durable record), then the job.</summary>
public sealed class RunService(IDbContextFactory<BenchDbContext> databases, IRunJobClient jobs, RunUpdatePublisher publisher, CsvUploadStore uploads, TimeProvider time)
{
    /// <summary>Queues a run of the plan. The plan is checked first, as a plan from the web (its workload file is an
    /// uploaded one, never a path); nothing is queued when it is invalid.</summary>
    /// <exception cref="RunPlanValidationException">The plan has invalid settings.</exception>
    public async Task<long> StartAsync(RunPlan plan, long? profileId, string? presetId, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (await uploads.ValidateAsync(plan, cancellationToken) is { Count: > 0 } errors)
        {
            throw new RunPlanValidationException(errors);
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = new RunEntity
        {
            ProfileId = profileId,
            PresetId = presetId,
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = RunStatus.Queued,
            TargetKind = plan.Target.Kind,
            QueuedAt = time.GetUtcNow(),
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync(cancellationToken);
        try
        {
            run.JobId = await jobs.EnqueueAsync(run.Id, CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The row stays, saying why it never ran, rather than waiting in Queued for a job that does not exist.
            run.Status = RunStatus.Failed;
            run.FailureReason = $"The run could not be queued: {ex.Message}";
            run.EndedAt = time.GetUtcNow();
        }

        await db.SaveChangesAsync(CancellationToken.None);

        // A cancel made before the job's id was saved could not reach the job; it is passed on now.
        if (run.JobId is { } jobId && await db.Runs.Where(r => r.Id == run.Id).Select(r => r.CancelRequestedAt).SingleAsync(CancellationToken.None) is not null)
        {
            await jobs.CancelAsync(jobId, CancellationToken.None);
        }

        return run.Id;
    }

    /// <summary>Cancels a queued run at once, or asks a running one to stop: its load stops within about a
    /// second and everything measured is kept. Returns false when the run has already ended.</summary>
    public async Task<bool> CancelAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
        if (run is null || !run.IsActive)
        {
            return false;
        }

        run.CancelRequestedAt = time.GetUtcNow();
        await db.SaveChangesAsync(cancellationToken);

        var dequeued = await db.Database.ExecuteSqlInterpolatedAsync(
            $"UPDATE Runs SET Status = {nameof(RunStatus.Cancelled)} WHERE Id = {runId} AND Status = {nameof(RunStatus.Queued)}", cancellationToken);
        if (dequeued == 1)
        {
            await db.Entry(run).ReloadAsync(cancellationToken);
            run.EndedAt = time.GetUtcNow();
            run.StopReason = "cancelled before it started";
            await db.SaveChangesAsync(cancellationToken);
            await publisher.StatusAsync(new RunStatusChange(runId, RunStatus.Cancelled, run.StopReason), cancellationToken);
        }

        // Through the job scheduler too: a waiting job leaves the queue, an executing one has its token signalled.
        // The run row's cancel request above reaches the run even where the scheduler cannot (the job just ended).
        // The job's id is read after the request is saved: a launch saving it meanwhile sees the request instead.
        if (await db.Runs.Where(r => r.Id == runId).Select(r => r.JobId).SingleAsync(cancellationToken) is { } jobId)
        {
            await jobs.CancelAsync(jobId, cancellationToken);
        }

        return true;
    }
}
