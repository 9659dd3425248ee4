using BenchWeb.Execution;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using Microsoft.Extensions.DependencyInjection;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Jobs;

/// <summary>Once armed, cancels the run the moment its job is enqueued, before the launch saves the job's id: the
/// narrowest gap a user's cancel can fall into.</summary>
internal sealed class CancelDuringEnqueue(IRunJobClient inner, IServiceProvider services) : IRunJobClient
{
    public bool Armed { get; set; }

    public async Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken)
    {
        var jobId = await inner.EnqueueAsync(runId, cancellationToken);
        if (Armed)
        {
            Armed = false;
            Assert.True(await services.GetRequiredService<RunService>().CancelAsync(runId, TestActors.Runner, cancellationToken));
        }

        return jobId;
    }

    public Task<string> EnqueueSweepAsync(long sweepId, CancellationToken cancellationToken) => inner.EnqueueSweepAsync(sweepId, cancellationToken);

    public Task<string> EnqueueShardAsync(long runId, int shard, string queue, CancellationToken cancellationToken) =>
        inner.EnqueueShardAsync(runId, shard, queue, cancellationToken);

    public Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken) => inner.CancelAsync(jobId, cancellationToken);

    public Task<bool> AbandonAsync(string jobId, string reason, CancellationToken cancellationToken) => inner.AbandonAsync(jobId, reason, cancellationToken);
}
