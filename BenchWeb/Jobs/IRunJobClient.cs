namespace BenchWeb.Jobs;

/// <summary>Puts runs on the background job queue. The app's only way to the scheduler, so the rest of the app
/// does not depend on which scheduler runs the jobs.</summary>
public interface IRunJobClient
{
    /// <summary>Enqueues the job that executes a queued run; returns the job's id.</summary>
    Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken);

    /// <summary>Signals the run's job, if it executes in this process, to stop now. Other instances notice the
    /// run row's cancel request within a second.</summary>
    Task<bool> InterruptAsync(long runId, CancellationToken cancellationToken);
}
