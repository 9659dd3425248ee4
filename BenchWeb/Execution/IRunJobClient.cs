namespace BenchWeb.Execution;

/// <summary>Puts runs on the background job queue. The app's only way to the scheduler, so the rest of the app
/// does not depend on which scheduler runs the jobs.</summary>
public interface IRunJobClient
{
    /// <summary>Enqueues the job that executes a queued run; returns the job's id.</summary>
    Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken);

    /// <summary>Enqueues the job that executes a queued sweep, its steps one after another; returns the job's id.</summary>
    Task<string> EnqueueSweepAsync(long sweepId, CancellationToken cancellationToken);

    /// <summary>Enqueues the job that executes shard <paramref name="shard"/> of a run spread over agents, on the queue
    /// of the agent it is for; returns the job's id.</summary>
    Task<string> EnqueueShardAsync(long runId, int shard, string queue, CancellationToken cancellationToken);

    /// <summary>Cancels the job: taken off the queue if it waits, its cancellation token signalled if it executes
    /// (on whichever server runs it). Returns false when the job had already ended.</summary>
    Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken);

    /// <summary>The job's server is gone (its agent stopped heartbeating): a job still marked executing ends failed with
    /// <paramref name="reason"/>, and one still waiting in that agent's queue is taken off it. Without this the scheduler
    /// would show it executing until its storage gave it to another server, which would then start it again. Returns false
    /// when the job had already ended.</summary>
    Task<bool> AbandonAsync(string jobId, string reason, CancellationToken cancellationToken);
}
