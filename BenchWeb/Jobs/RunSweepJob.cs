using BenchWeb.Sweeps;
using Hangfire;

namespace BenchWeb.Jobs;

/// <summary>The background job that executes a sweep, its steps one after another on this server. Never retried, like
/// every benchmark job.</summary>
[AutomaticRetry(Attempts = 0, OnAttemptsExceeded = AttemptsExceededAction.Fail)]
public sealed class RunSweepJob(SweepExecutor executor)
{
    /// <param name="sweepId">The queued sweep.</param>
    /// <param name="cancellationToken">Supplied by Hangfire: signalled when the job is deleted or the server stops.</param>
    [JobDisplayName("Sweep {0}")]
    [Queue(RunBenchmarkJob.Queue)]
    public Task ExecuteAsync(long sweepId, CancellationToken cancellationToken) => executor.ExecuteAsync(sweepId, cancellationToken);
}
