using BenchWeb.Execution;
using BenchWeb.Jobs;

namespace BenchWeb.Tests.Support.Components;

/// <summary>Records enqueued runs instead of executing them: component tests do not execute runs (the
/// integration tests do).</summary>
internal sealed class RecordingRunJobClient : IRunJobClient
{
    public List<long> Enqueued { get; } = [];

    public Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken)
    {
        Enqueued.Add(runId);
        return Task.FromResult($"recorded-{runId}");
    }

    public List<long> EnqueuedSweeps { get; } = [];

    public Task<string> EnqueueSweepAsync(long sweepId, CancellationToken cancellationToken)
    {
        EnqueuedSweeps.Add(sweepId);
        return Task.FromResult($"recorded-sweep-{sweepId}");
    }

    public Task<string> EnqueueShardAsync(long runId, int shard, string queue, CancellationToken cancellationToken)
    {
        Enqueued.Add(runId);
        return Task.FromResult($"recorded-{runId}-{shard}");
    }

    public Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken) => Task.FromResult(false);

    public Task<bool> AbandonAsync(string jobId, string reason, CancellationToken cancellationToken) => Task.FromResult(false);
}
