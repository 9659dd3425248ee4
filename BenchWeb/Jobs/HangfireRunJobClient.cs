using Hangfire;
using Hangfire.States;
using BenchWeb.Execution;

namespace BenchWeb.Jobs;

/// <summary>Runs jobs through Hangfire, on whichever job storage the composition root configured.</summary>
internal sealed class HangfireRunJobClient(IBackgroundJobClient jobs) : IRunJobClient
{
    public Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken) =>
        Task.FromResult(jobs.Create<RunBenchmarkJob>(job => job.ExecuteAsync(runId, CancellationToken.None), new EnqueuedState(RunBenchmarkJob.Queue)));

    public Task<string> EnqueueSweepAsync(long sweepId, CancellationToken cancellationToken) =>
        Task.FromResult(jobs.Create<RunSweepJob>(job => job.ExecuteAsync(sweepId, CancellationToken.None), new EnqueuedState(RunBenchmarkJob.Queue)));

    public Task<string> EnqueueShardAsync(long runId, int shard, string queue, CancellationToken cancellationToken) =>
        Task.FromResult(jobs.Create<RunShardJob>(job => job.ExecuteAsync(runId, shard, CancellationToken.None), new EnqueuedState(queue)));

    // Deleting a processing job is Hangfire's cancellation: the server that executes it notices the state change
    // and signals the job's token. Only a waiting or executing job is deleted: one that has ended keeps its state.
    public Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken) =>
        Task.FromResult(jobs.Delete(jobId, EnqueuedState.StateName) || jobs.Delete(jobId, ProcessingState.StateName));

    public Task<bool> AbandonAsync(string jobId, string reason, CancellationToken cancellationToken) =>
        Task.FromResult(jobs.ChangeState(jobId, new FailedState(new AgentLostException(reason)) { Reason = reason }, ProcessingState.StateName)
            || jobs.Delete(jobId, EnqueuedState.StateName));
}
