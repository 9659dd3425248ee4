using BenchWeb.Fleet;
using Hangfire;

namespace BenchWeb.Jobs;

/// <summary>The background job that executes one shard of a run spread over agents. It waits in the queue of the agent
/// it was given to (no <see cref="QueueAttribute"/>: the queue is chosen when it is enqueued), and like every benchmark
/// job it is never retried.</summary>
[AutomaticRetry(Attempts = 0, OnAttemptsExceeded = AttemptsExceededAction.Fail)]
public sealed class RunShardJob(ShardExecutor executor)
{
    /// <param name="runId">The run.</param>
    /// <param name="shard">The shard's number, from 0.</param>
    /// <param name="cancellationToken">Supplied by Hangfire: signalled when the job is deleted (a cancel) or the server stops.</param>
    [JobDisplayName("Benchmark run {0}, shard {1}")]
    public Task ExecuteAsync(long runId, int shard, CancellationToken cancellationToken) => executor.ExecuteAsync(runId, shard, cancellationToken);
}
