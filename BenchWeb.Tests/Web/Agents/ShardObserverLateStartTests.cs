using BenchEngine.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Fleet;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchWeb.Tests.Web.Agents;

/// <summary>An agent whose wait for the run's common start ends late (its process was suspended, or too busy to wake) joins
/// the run at the second it was in: its seconds are placed from there, and the offset is stored and shown.</summary>
[UnitTest]
public sealed class ShardObserverLateStartTests
{
    [Fact]
    public async Task AnAgentSuspendedAcrossTheCommonStart_PlacesItsSecondsAtTheSecondItJoined_AndStoresItsOffset()
    {
        await using var context = new BenchWebComponentContext();
        var time = SteppedClock.Create();
        var startAt = time.GetUtcNow() + TimeSpan.FromSeconds(1);
        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        var distributed = new DistributedRuns(context.Databases, publisher, time, Microsoft.Extensions.Options.Options.Create(ClientLimits.Default));
        var plan = new RunPlan
        {
            Name = "late agent",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 2 },
            Stop = new StopOptions { DurationSeconds = 6 },
        };
        var (run, shard) = await SeedAsync(context.Databases, plan, startAt);

        // The agent announces its start 1 s before the common start, then is suspended (SIGSTOP) until 3 s after it: time
        // stands still until it announced, and moves on 4 s before it goes on.
        using var stop = new CancellationTokenSource();
        var observer = new SuspendedAfterAnnouncing(new ShardObserver(run, shard, context.Databases, distributed, publisher, time, stop, NullLogger.Instance));
        var runner = new BenchmarkRunner(time);
        var running = Task.Run(() => runner.RunAsync(plan, new TargetContext(time, _ => null) { StartAt = startAt }, observer, stop.Token));
        await observer.Announced.Task.WaitAsync(TimeSpan.FromMinutes(1));
        time.Advance(TimeSpan.FromSeconds(4));
        observer.Resume.SetResult();
        var result = await SteppedClock.RunAsync(time, () => running, TimeSpan.FromMinutes(2));

        // The engine ran from 3 s after the common start to the common end, and said so.
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal("ran for 3 s: it started 3 s after the run's common start and stopped at its common end", result.StopReason);
        Assert.Equal(3, result.Seconds.Count(s => s.IsFull));

        // Its seconds are the run's seconds 3…5, not 0…2; the offset is stored, and the agents' breakdown (the run page's and
        // /api/runs/{id}/agents) shows it.
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var saved = await db.RunShardSeconds.AsNoTracking().Where(s => s.RunId == run.Id && s.Shard == shard.Index).OrderBy(s => s.Index).Select(s => s.Index).ToListAsync();
            Assert.Equal(result.Seconds.Select(s => s.Index + 3), saved);
            Assert.Equal(3, (await db.RunShards.AsNoTracking().SingleAsync(s => s.RunId == run.Id && s.Index == shard.Index)).OffsetSeconds);
            Assert.Equal(3, Assert.Single(await RunAgentBreakdown.ForRunAsync(db, run.Id, CancellationToken.None)).OffsetSeconds);
        }

        // Once it ended, the run's seconds 0…2 (before it joined) are empty and its own fill 3…5.
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            await db.RunShards.Where(s => s.RunId == run.Id).ExecuteUpdateAsync(s => s.SetProperty(x => x.Status, RunStatus.Completed).SetProperty(x => x.EndedAt, time.GetUtcNow()));
        }

        await distributed.FinishIfDoneAsync(run.Id, CancellationToken.None);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var seconds = await db.RunSeconds.AsNoTracking().Where(s => s.RunId == run.Id).OrderBy(s => s.Index).ToListAsync();
            Assert.Equal(Enumerable.Range(0, result.Seconds.Count + 3), seconds.Select(s => s.Index));
            Assert.All(seconds.Take(3), s => Assert.Equal(0L, s.Ok));
            Assert.Equal(result.Seconds.Select(s => s.Ok), seconds.Skip(3).Select(s => s.Ok));
        }
    }

    private static async Task<(RunEntity Run, RunShardEntity Shard)> SeedAsync(IDbContextFactory<BenchDbContext> databases, RunPlan plan, DateTimeOffset startAt)
    {
        await using var db = await databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = RunStatus.Running,
            TargetKind = plan.Target.Kind,
            QueuedAt = startAt - TimeSpan.FromSeconds(5),
            StartedAt = startAt,
            StartAt = startAt,
            ShardCount = 1,
        };
        run.Shards.Add(new RunShardEntity { Index = 0, AgentId = "agent-3", AgentName = "agent-3", Status = RunStatus.Running, StartedAt = startAt - TimeSpan.FromSeconds(1) });
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        db.ChangeTracker.Clear();
        return (await db.Runs.AsNoTracking().SingleAsync(r => r.Id == run.Id), await db.RunShards.AsNoTracking().SingleAsync(s => s.RunId == run.Id));
    }

    /// <summary>The shard's observer, in a process suspended as soon as it announced the start: it says when it announced,
    /// and goes on when told to.</summary>
    private sealed class SuspendedAfterAnnouncing(ShardObserver inner) : IRunObserver
    {
        public TaskCompletionSource Announced { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource Resume { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
        {
            await inner.OnStartedAsync(start, cancellationToken);
            Announced.SetResult();
            await Resume.Task;
        }

        public ValueTask OnClockStartedAsync(int joinedLateSeconds, CancellationToken cancellationToken) => inner.OnClockStartedAsync(joinedLateSeconds, cancellationToken);

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken) => inner.OnSecondAsync(second, cancellationToken);

        public ValueTask OnSlowRequestsAsync(SlowRequestChange change, CancellationToken cancellationToken) => inner.OnSlowRequestsAsync(change, cancellationToken);
    }
}
