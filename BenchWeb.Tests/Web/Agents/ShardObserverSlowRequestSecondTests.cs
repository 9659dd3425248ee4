using System.Text.Json;
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
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Web.Agents;

/// <summary>A run spread over agents places each shard's seconds and slow requests from the common start; whichever agents
/// started late, the run's seconds are numbered 0…n−1 and every slow request it keeps is in one of them.</summary>
[UnitTest]
public sealed class ShardObserverSlowRequestSecondTests
{
    private static readonly DateTimeOffset StartAt = new(2026, 11, 27, 9, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task AgentsThatStartLate_LeaveNoSecondOfTheRunOut_AndEverySlowRequestIsInOneOfTheRunsSeconds()
    {
        await using var context = new BenchWebComponentContext();
        var time = new FakeTimeProvider(StartAt - TimeSpan.FromSeconds(3));
        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        var distributed = new DistributedRuns(context.Databases, publisher, time, Microsoft.Extensions.Options.Options.Create(ClientLimits.Default));
        var run = await SeedAsync(context.Databases);

        // A busy machine: the first agent takes its shard 1.6 s after the common start (it joins at second 2), measures 1.4 s
        // and ends; the second takes its shard 4.2 s after the start (second 4), and its slowest request arrives in its last,
        // partial second.
        time.SetUtcNow(StartAt + TimeSpan.FromSeconds(1.6));
        await RunShardAsync(context.Databases, distributed, publisher, time, run, 0, slowInSecond: 0);
        time.SetUtcNow(StartAt + TimeSpan.FromSeconds(4.2));
        await RunShardAsync(context.Databases, distributed, publisher, time, run, 1, slowInSecond: 1);

        await using var db = await context.Databases.CreateDbContextAsync();
        var ended = await db.Runs.AsNoTracking().SingleAsync(r => r.Id == run.Id);
        var seconds = await db.RunSeconds.AsNoTracking().Where(s => s.RunId == run.Id).OrderBy(s => s.Index).ToListAsync();
        var slow = await db.RunDiagnostics.AsNoTracking().Where(d => d.RunId == run.Id).OrderBy(d => d.Second).ToListAsync();
        Assert.Equal(RunStatus.Completed, ended.Status);

        // What the run's page, its export and its import read: every slow request is in one of the run's seconds.
        Assert.All(slow, d => Assert.InRange(d.Second, 0, seconds.Count - 1));

        // The run's seconds count from the common start, none missing: those no agent measured are there, empty.
        Assert.Equal([0, 1, 2, 3, 4, 5], seconds.Select(s => s.Index));
        Assert.Equal([0L, 0, 400, 100, 400, 100], seconds.Select(s => s.Ok));
        Assert.All(seconds.Take(2), s => Assert.Equal((0L, 0L, 1.0), (s.Issued, s.InFlight, s.DurationSeconds)));
        Assert.Equal(5.4, ended.ElapsedSeconds!.Value, 6);
        Assert.Equal(seconds[^1].ElapsedSeconds, ended.ElapsedSeconds!.Value, 6);

        // Each slow request is in the run's second its shard measured it in, one of the run's seconds, with the counts it was
        // counted in; nothing was dropped from the figures.
        Assert.Equal([2, 5], slow.Select(d => d.Second));
        Assert.All(slow, d => Assert.True(seconds[d.Second].Ok > 0, $"second {d.Second} has the counts of its slow request"));
        Assert.Equal(1_000L, seconds.Sum(s => s.Ok));
        var summary = JsonSerializer.Deserialize<RunSummary>(ended.SummaryJson!, RunPlan.JsonOptions)!;
        Assert.Equal(1_000L, summary.TotalOk);

        // The per-second figures are the measured seconds': the seconds no agent ran are not the target's.
        Assert.Equal(400, summary.MeanPerSecondThroughput, 6);
    }

    [Fact]
    public async Task AnAgentGivenUpForLost_ThatSavesASecondAfterTheRunEnded_ChangesNoneOfTheRunsSeconds()
    {
        await using var context = new BenchWebComponentContext();
        var time = new FakeTimeProvider(StartAt);
        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        var distributed = new DistributedRuns(context.Databases, publisher, time, Microsoft.Extensions.Options.Options.Create(ClientLimits.Default));
        var run = await SeedAsync(context.Databases);

        // The second agent took its shard, then went silent: another instance gave it up for lost, and with the first agent's
        // shard done the run ended, its seconds and summary made from what the shards had saved.
        RunShardEntity lost;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            lost = await db.RunShards.SingleAsync(s => s.RunId == run.Id && s.Index == 1);
            lost.Status = RunStatus.Running;
            lost.StartedAt = StartAt;
            await db.SaveChangesAsync();
        }

        await RunShardAsync(context.Databases, distributed, publisher, time, run, 0, slowInSecond: 0);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            await db.RunShards.Where(s => s.RunId == run.Id && s.Index == 1).ExecuteUpdateAsync(s => s.SetProperty(x => x.Status, RunStatus.Interrupted));
        }

        await distributed.FinishIfDoneAsync(run.Id, CancellationToken.None);
        var before = await SecondsOfAsync(context.Databases, run.Id);
        Assert.Equal([400L, 100], before.Select(s => s.Ok));

        // The agent was alive after all: it closes a second and saves it, then learns it was given up and stops.
        using var stop = new CancellationTokenSource();
        var observer = new ShardObserver(run, lost, context.Databases, distributed, publisher, time, stop, NullLogger.Instance);
        time.Advance(TimeSpan.FromSeconds(1));
        await observer.OnSecondAsync(new SecondSnapshot { Index = 2, Elapsed = TimeSpan.FromSeconds(3), Duration = TimeSpan.FromSeconds(1), Ok = 700, OkRequests = 700, Issued = 700 }, CancellationToken.None);

        // The ended run's seconds are those its summary was made from: the late second is the shard's, not the run's.
        Assert.True(stop.IsCancellationRequested);
        Assert.Equal(before.Select(s => (s.Index, s.Ok)), (await SecondsOfAsync(context.Databases, run.Id)).Select(s => (s.Index, s.Ok)));
        await using var check = await context.Databases.CreateDbContextAsync();
        var summary = JsonSerializer.Deserialize<RunSummary>((await check.Runs.AsNoTracking().SingleAsync(r => r.Id == run.Id)).SummaryJson!, RunPlan.JsonOptions)!;
        Assert.Equal(summary.TotalOk, before.Sum(s => s.Ok));
    }

    private static async Task<List<RunSecondEntity>> SecondsOfAsync(IDbContextFactory<BenchDbContext> databases, long runId)
    {
        await using var db = await databases.CreateDbContextAsync();
        return await db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync();
    }

    [Fact]
    public void Contiguous_KeepsTheMeasuredSecondsAsTheyAre_AndAddsNothingWhenNoneIsMissing()
    {
        var measured = new[] { Second(0, 5), Second(1, 7) };

        Assert.Equal(measured, DistributedRuns.Contiguous(9, measured, StartAt));
        Assert.Empty(DistributedRuns.Contiguous(9, [], StartAt));

        var filled = DistributedRuns.Contiguous(9, [Second(2, 5)], StartAt);
        Assert.Equal([0, 1, 2], filled.Select(s => s.Index));
        Assert.Equal([StartAt + TimeSpan.FromSeconds(1), StartAt + TimeSpan.FromSeconds(2)], filled.Take(2).Select(s => s.ClosedAt));
        Assert.All(filled.Take(2), s => Assert.Equal((9L, 0L, s.Index + 1.0), (s.RunId, s.Ok, s.ElapsedSeconds)));
    }

    private static RunSecondEntity Second(int index, long ok) =>
        RunSecondEntity.From(9, new SecondSnapshot { Index = index, Elapsed = TimeSpan.FromSeconds(index + 1), Duration = TimeSpan.FromSeconds(1), Ok = ok }, StartAt);

    /// <summary>One agent's shard as the engine reports it: started now, a full second of 400 and a last second of 0.4 s and
    /// 100, its slowest request in <paramref name="slowInSecond"/> of its own seconds; then it ends, completed.</summary>
    private static async Task RunShardAsync(IDbContextFactory<BenchDbContext> databases, DistributedRuns distributed, RunUpdatePublisher publisher,
        FakeTimeProvider time, RunEntity run, int index, int slowInSecond)
    {
        await using var db = await databases.CreateDbContextAsync();
        var shard = await db.RunShards.SingleAsync(s => s.RunId == run.Id && s.Index == index);
        shard.Status = RunStatus.Running;
        shard.StartedAt = time.GetUtcNow();
        await db.SaveChangesAsync();

        using var stop = new CancellationTokenSource();
        var observer = new ShardObserver(run, shard, databases, distributed, publisher, time, stop, NullLogger.Instance);
        await observer.OnStartedAsync(new RunStart("Azure Table Storage", false, null, new ClientEnvironment { ProcessorCount = 2 }, time.GetUtcNow()), CancellationToken.None);
        SecondSnapshot[] seconds =
        [
            new() { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Ok = 400, OkRequests = 400, Issued = 400 },
            new() { Index = 1, Elapsed = TimeSpan.FromSeconds(1.4), Duration = TimeSpan.FromSeconds(0.4), Ok = 100, OkRequests = 100, Issued = 100 },
        ];
        foreach (var second in seconds)
        {
            time.Advance(second.Duration);
            await observer.OnSecondAsync(second, CancellationToken.None);
            if (second.Index == slowInSecond)
            {
                var request = new SlowRequest { Second = second.Index, LatencyMs = 900, StatusCode = 204, Outcome = OutcomeKind.Ok, Target = "Azure Table Storage", Summary = "204 in 900 ms", Text = "x-ms-request-id: 1" };
                await observer.OnSlowRequestsAsync(new SlowRequestChange([new NumberedSlowRequest(0, request)], []), CancellationToken.None);
            }
        }

        await observer.SaveUnsavedAsync(db, seconds);
        db.ChangeTracker.Clear();
        shard = await db.RunShards.SingleAsync(s => s.RunId == run.Id && s.Index == index);
        shard.Status = RunStatus.Completed;
        shard.EndedAt = time.GetUtcNow();
        await db.SaveChangesAsync();
        await distributed.FinishIfDoneAsync(run.Id, CancellationToken.None);
    }

    private static async Task<RunEntity> SeedAsync(IDbContextFactory<BenchDbContext> databases)
    {
        await using var db = await databases.CreateDbContextAsync();
        var plan = SeededRuns.Plan(TargetKind.TableStorage, "late agents");
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = RunStatus.Running,
            TargetKind = plan.Target.Kind,
            QueuedAt = StartAt - TimeSpan.FromSeconds(3),
            StartedAt = StartAt,
            StartAt = StartAt,
            ShardCount = 2,
        };
        run.Shards.AddRange(Enumerable.Range(0, 2).Select(i => new RunShardEntity { Index = i, AgentId = $"agent-{i}", AgentName = $"agent-{i}", Status = RunStatus.Queued }));
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        db.ChangeTracker.Clear();
        return await db.Runs.AsNoTracking().SingleAsync(r => r.Id == run.Id);
    }
}
