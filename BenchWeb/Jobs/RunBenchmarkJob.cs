using BenchWeb.Execution;
using Hangfire;

namespace BenchWeb.Jobs;

/// <summary>The background job that executes one run. Never retried: re-running a benchmark would load a paid
/// account twice; <see cref="RunExecutor"/> marks a run it finds already running as interrupted instead.</summary>
[AutomaticRetry(Attempts = 0, OnAttemptsExceeded = AttemptsExceededAction.Fail)]
public sealed class RunBenchmarkJob(RunExecutor executor)
{
    /// <summary>The queue benchmark jobs wait in; a server takes as many at once as it has workers.</summary>
    public const string Queue = "benchmarks";

    /// <param name="runId">The queued run.</param>
    /// <param name="cancellationToken">Supplied by Hangfire: signalled when the job is deleted (a cancel) or the server stops.</param>
    [JobDisplayName("Benchmark run {0}")]
    [Queue(Queue)]
    public Task ExecuteAsync(long runId, CancellationToken cancellationToken) => executor.ExecuteAsync(runId, cancellationToken);
}
