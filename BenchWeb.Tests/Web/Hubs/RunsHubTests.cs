using System.Collections.Concurrent;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Hubs;
using BenchWeb.Launch;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Client;

namespace BenchWeb.Tests.Web.Hubs;

/// <summary>The hub as a .NET SignalR client sees it, with the app hosted in-process and a real run executing
/// through its job server.</summary>
[IntegrationTest]
public sealed class RunsHubTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    [Slow]
    public async Task JoinRun_BeforeTheRunStarts_ReceivesEverySecondAndStatusInOrderWithNoGap()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:MaxConcurrentRuns"] = "1" });
        var runs = app.Get<RunService>();

        // The only worker is busy with a first run, so the watched run waits in the queue while the client joins.
        var blockerId = await runs.StartAsync(Plan("blocker", durationSeconds: 60), null, null, TestActors.Runner, CancellationToken.None);
        await using var blocker = await WatchAsync(app, blockerId);
        await blocker.WaitForAsync(m => m is RunSecondEntity, "the first run to be under way");
        var runId = await runs.StartAsync(Plan("watched", durationSeconds: 4), null, null, TestActors.Runner, CancellationToken.None);
        await using var watched = await WatchAsync(app, runId);
        Assert.Empty(watched.Saved);
        Assert.True(await runs.CancelAsync(blockerId, TestActors.Runner, CancellationToken.None));

        var ended = await watched.WaitForAsync(m => m is RunStatusChange { Status: not RunStatus.Running }, "the watched run to end");

        Assert.Equal(RunStatus.Completed, ((RunStatusChange)ended).Status);
        var messages = watched.Messages.ToList();
        var seconds = messages.OfType<RunSecondEntity>().ToList();
        Assert.Equal(Enumerable.Range(0, seconds.Count), seconds.Select(s => s.Index));
        // 4 s of load, closed on the run's clock at each whole second; then the stop's grace period for requests in flight.
        Assert.Equal([1.0, 2.0, 3.0, 4.0], seconds.Take(4).Select(s => s.ElapsedSeconds));
        var firstSecond = messages.FindIndex(m => m is RunSecondEntity);
        Assert.All(messages[..firstSecond], m => Assert.Equal(RunStatus.Running, Assert.IsType<RunStatusChange>(m).Status));
        Assert.NotEmpty(messages[..firstSecond]);
        Assert.Same(ended, messages[^1]);

        // What arrived live is what was stored.
        var stored = await app.Services.SecondsAsync(runId);
        Assert.Equal(stored.Select(s => (s.Index, s.Ok, s.Throttled, s.Errors)), seconds.Select(s => (s.Index, s.Ok, s.Throttled, s.Errors)));
        Assert.True(seconds.Sum(s => s.Ok) > 0);

        // Each second came with the tiles it leads to, counted over every second before it: the browser sets them as they are.
        var running = 0L;
        foreach (var second in seconds)
        {
            running += second.Ok;
            var tiles = Assert.IsType<RunTileTexts>(watched.Tiles[second.Index]);
            Assert.Equal(running.ToString("N0", System.Globalization.CultureInfo.CurrentCulture), tiles.TotalOk);
            Assert.Equal(BenchEngine.Metrics.ElapsedText.Format(TimeSpan.FromSeconds(second.ElapsedSeconds)), tiles.Elapsed);
        }
    }

    [Fact]
    [Slow]
    public async Task JoinRun_MidRun_ReturnsTheSecondsSoFarAndTheRestArriveLive()
    {
        await using var app = new BenchWebFactory();
        var runs = app.Get<RunService>();
        var runId = await runs.StartAsync(Plan("joined late", durationSeconds: 8), null, null, TestActors.Runner, CancellationToken.None);
        await using (var early = await WatchAsync(app, runId))
        {
            await early.WaitForAsync(m => m is RunSecondEntity { Index: >= 1 }, "two seconds");
        }

        await using var late = await WatchAsync(app, runId);
        await late.WaitForAsync(m => m is RunStatusChange { Status: not RunStatus.Running }, "the run to end");

        Assert.NotEmpty(late.Saved);
        var merged = late.Saved.Concat(late.Messages.OfType<RunSecondEntity>()).GroupBy(s => s.Index).Select(g => g.First()).OrderBy(s => s.Index).ToList();
        Assert.Equal(Enumerable.Range(0, merged.Count), merged.Select(s => s.Index));
        var stored = await app.Services.SecondsAsync(runId);
        Assert.Equal(stored.Select(s => (s.Index, s.Ok)), merged.Select(s => (s.Index, s.Ok)));
    }

    [Fact]
    [Slow]
    public async Task JoinRun_PushesEachSecondWithItsClientHealthAndRequestBuckets_AsTheyAreStored()
    {
        var settings = ScriptedClientHealth.Settings();
        settings["BenchWeb:MaxConcurrentRuns"] = "1";
        await using var app = new BenchWebFactory(settings, s => ScriptedClientHealth.Replace(s, ScriptedClientHealth.StarvedIn(1, 2)));
        var runs = app.Get<RunService>();

        // The only worker is busy with a first run, so the watched run waits in the queue while the client joins: however
        // busy the machine, no second can pass before the watcher is there.
        var blockerId = await runs.StartAsync(Plan("blocker", durationSeconds: 60), null, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(blockerId)).Status == RunStatus.Running, TimeSpan.FromSeconds(60), "the first run to start");
        var runId = await runs.StartAsync(Plan("client health", durationSeconds: 3), null, null, TestActors.Runner, CancellationToken.None);
        await using var watched = await WatchAsync(app, runId);
        Assert.True(await runs.CancelAsync(blockerId, TestActors.Runner, CancellationToken.None));

        await watched.WaitForAsync(m => m is RunStatusChange { Status: not RunStatus.Running }, "the run to end");

        var pushed = watched.Messages.OfType<RunSecondEntity>().ToList();
        Assert.NotEmpty(pushed);
        Assert.All(pushed, s => Assert.NotNull(s.ClientLimits));
        Assert.Contains(pushed, s => s is { ClientLimits: (int)(ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag), HostCpuPercent: 100, SchedulingLagP99Ms: 180, ThreadPoolQueueMax: 12, AvailableMemoryMb: 1_500 });
        var stored = (await app.Services.SecondsAsync(runId)).ToDictionary(s => s.Index);
        Assert.All(pushed, s => Assert.Equal(Columns(stored[s.Index]), Columns(s)));
    }

    /// <summary>The columns client health and the request buckets added to a second.</summary>
    private static object Columns(RunSecondEntity s) =>
        (s.Index, s.SentLate, s.NotStarted, s.Abandoned, s.GivenUpRequests, s.ClientLimits, s.HostCpuPercent, s.SchedulingLagP50Ms, s.SchedulingLagP99Ms,
            (s.SchedulingLagMaxMs, s.ClockLagMs, s.ThreadPoolQueueMax, s.ThreadPoolThreads, s.ThreadInjections, s.GcPauseMs, s.AvailableMemoryMb));

    [Fact]
    public async Task SecondsAfter_ReturnsTheSavedSecondsAfterTheIndexInOrder_APageAtATime()
    {
        await using var app = new BenchWebFactory();
        var databases = app.Get<Microsoft.EntityFrameworkCore.IDbContextFactory<BenchDbContext>>();
        var runId = await SeededRuns.AddAsync(databases, SeededRuns.Plan(BenchEngine.Targets.TargetKind.Simulated, "a gap to fill"), SeededRuns.Seconds(700, 100, 5));
        await using var connection = app.CreateHubConnection(RunsHub.Path, await app.Services.CreateTokenAsync(BenchWeb.Guard.Security.BenchWebRoles.Viewer));
        await connection.StartAsync();
        Task<IReadOnlyList<RunSecondEntity>> AfterAsync(int index) => connection.InvokeAsync<IReadOnlyList<RunSecondEntity>>(nameof(RunsHub.SecondsAfter), runId, index);

        Assert.Equal([695, 696, 697, 698, 699], (await AfterAsync(694)).Select(s => s.Index));
        Assert.Equal(Enumerable.Range(0, RunsHub.MaxSecondsPerCall), (await AfterAsync(-1)).Select(s => s.Index));
        Assert.Equal(Enumerable.Range(RunsHub.MaxSecondsPerCall, 700 - RunsHub.MaxSecondsPerCall), (await AfterAsync(RunsHub.MaxSecondsPerCall - 1)).Select(s => s.Index));
        Assert.Empty(await AfterAsync(699));
        var stored = await app.Services.SecondsAsync(runId);
        Assert.Equal(stored.Where(s => s.Index > 694).Select(s => (s.Index, s.Ok)), (await AfterAsync(694)).Select(s => (s.Index, s.Ok)));

        var refused = await Assert.ThrowsAsync<HubException>(() => AfterAsync(-2));
        Assert.Contains("afterIndex must be -1 (from the first second) or a second's index; -2 is neither.", refused.Message, StringComparison.Ordinal);
    }

    private static RunPlan Plan(string name, int durationSeconds) => new() { Name = name, Stop = new StopOptions { DurationSeconds = durationSeconds } };

    [Fact]
    public async Task Connect_WithoutSigningIn_IsRefused()
    {
        await using var app = new BenchWebFactory();
        await using var connection = app.CreateHubConnection(RunsHub.Path, token: null);

        var refused = await Assert.ThrowsAnyAsync<Exception>(() => connection.StartAsync());

        Assert.Contains("401", refused.Message, StringComparison.Ordinal);
    }

    private static async Task<Watcher> WatchAsync(BenchWebFactory app, long runId)
    {
        // A Viewer may watch every run.
        var connection = app.CreateHubConnection(RunsHub.Path, await app.Services.CreateTokenAsync(BenchWeb.Guard.Security.BenchWebRoles.Viewer));
        var watcher = new Watcher(connection);
        connection.On<RunSecondEntity, RunTileTexts?>(RunsHub.SecondMessage, (second, tiles) =>
        {
            watcher.Tiles[second.Index] = tiles;
            watcher.Add(second);
        });
        connection.On<RunStatusChange>(RunsHub.StatusMessage, watcher.Add);
        await connection.StartAsync();
        watcher.Saved = await connection.InvokeAsync<IReadOnlyList<RunSecondEntity>>(nameof(RunsHub.JoinRun), runId);
        return watcher;
    }

    private sealed class Watcher(HubConnection connection) : IAsyncDisposable
    {
        private readonly ConcurrentQueue<object> _messages = new();
        private readonly SemaphoreSlim _arrived = new(0);

        public IReadOnlyList<RunSecondEntity> Saved { get; set; } = [];

        /// <summary>The tiles' texts that came with each second, by its index.</summary>
        public ConcurrentDictionary<int, RunTileTexts?> Tiles { get; } = new();

        public IReadOnlyCollection<object> Messages => _messages;

        public void Add(object message)
        {
            _messages.Enqueue(message);
            _arrived.Release();
        }

        public async Task<object> WaitForAsync(Func<object, bool> match, string what)
        {
            using var timeout = new CancellationTokenSource(Timeout);
            while (true)
            {
                if (_messages.FirstOrDefault(match) is { } found)
                {
                    return found;
                }

                try
                {
                    await _arrived.WaitAsync(timeout.Token);
                }
                catch (OperationCanceledException)
                {
                    throw new TimeoutException($"Waited {Timeout.TotalSeconds:N0} s for {what}; received {_messages.Count} messages.");
                }
            }
        }

        public async ValueTask DisposeAsync()
        {
            await connection.DisposeAsync();
            _arrived.Dispose();
        }
    }
}
