using BenchEngine.Running;
using BenchWeb.Execution;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Runs;

[UnitTest]
public sealed class RunServiceTests
{
    [Fact]
    public async Task Start_SchedulerRefusesTheJob_RecordsTheRunAsFailedWithTheReason()
    {
        await using var context = new BenchWebComponentContext(new RefusingJobClient());

        var id = await context.Services.GetRequiredService<RunService>().StartAsync(new RunPlan { Name = "refused" }, null, null, TestActors.Runner, CancellationToken.None);

        await using var db = await context.Databases.CreateDbContextAsync();
        var run = await db.Runs.SingleAsync(r => r.Id == id);
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Equal("The run could not be queued: The scheduler is shut down.", run.FailureReason);
        Assert.NotNull(run.EndedAt);
    }

    private sealed class RefusingJobClient : IRunJobClient
    {
        public Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken) => throw new InvalidOperationException("The scheduler is shut down.");

        public Task<string> EnqueueShardAsync(long runId, int shard, string queue, CancellationToken cancellationToken) => throw new InvalidOperationException("The scheduler is shut down.");

        public Task<string> EnqueueSweepAsync(long sweepId, CancellationToken cancellationToken) => throw new InvalidOperationException("The scheduler is shut down.");

        public Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken) => Task.FromResult(false);

        public Task<bool> AbandonAsync(string jobId, string reason, CancellationToken cancellationToken) => Task.FromResult(false);
    }
}
