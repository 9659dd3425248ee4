using System.Collections.Concurrent;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The run's clock closes each second on time whatever its observer or its target's threads do: a slow sink makes
/// seconds late, never different, and writes that complete synchronously cannot move a second's boundary.</summary>
public partial class BenchmarkRunnerTests
{
    [Fact]
    public async Task RunAsync_SecondsAreWhatTheTargetCountedEachSecond_AndTheSummaryIsUndisturbed_WhenTheObserverBlocksForTenSeconds()
    {
        var blocked = await RunWithSinkAsync(blockAtSecond: 3);
        var fast = await RunWithSinkAsync(blockAtSecond: null);

        // The sink really stalled: the seconds closed while it was blocked reached it only after 10 s of the run's clock.
        Assert.True(blocked.Sink.ReceivedAt[4] >= TimeSpan.FromSeconds(13), $"second 4 reached the sink at {blocked.Sink.ReceivedAt[4]}");
        Assert.True(fast.Sink.ReceivedAt[4] < TimeSpan.FromSeconds(6), $"second 4 reached the fast sink at {fast.Sink.ReceivedAt[4]}");

        foreach (var (result, sink, target) in new[] { blocked, fast })
        {
            // Every second reached the sink, in order, as the engine closed it, and the engine closed each on time.
            Assert.Equal(result.Seconds.Select(s => s.Index), sink.Seconds.Select(s => s.Index));
            Assert.Equal(result.Seconds, sink.Seconds);
            Assert.Equal(15, result.Seconds.Count(s => s.IsFull));
            Assert.All(result.Seconds.Where(s => s.IsFull), s => Assert.Equal(TimeSpan.FromSeconds(s.Index + 1), s.Elapsed));

            // Each second holds what the target counted in that second of the same clock, but for the writes that completed
            // at the very instant of one of its boundaries, and one per worker caught between the target's count and the
            // engine's (they may fall on either side).
            Assert.Equal(target.Total, result.Seconds.Sum(s => s.Ok));
            foreach (var second in result.Seconds.Where(s => s.IsFull))
            {
                var jitter = target.AtBoundary(second.Index) + target.AtBoundary(second.Index + 1) + ClockConcurrency;
                Assert.InRange(second.Ok, target.InSecond(second.Index) - jitter, target.InSecond(second.Index) + jitter);
            }
        }

        // The summary's per-second figures are those of the undisturbed run, within what a second's boundaries may move.
        var (b, f) = (blocked.Result.Summary, fast.Result.Summary);
        var boundary = 2 * (Enumerable.Range(0, 17).Max(i => Math.Max(blocked.Target.AtBoundary(i), fast.Target.AtBoundary(i))) + ClockConcurrency);
        Assert.Equal(f.PerSecondLeftOut, b.PerSecondLeftOut);
        Assert.InRange(b.MeanPerSecondThroughput, f.MeanPerSecondThroughput - boundary, f.MeanPerSecondThroughput + boundary);
        Assert.InRange(b.P99PerSecondThroughput, f.P99PerSecondThroughput - boundary, f.P99PerSecondThroughput + boundary);
        Assert.InRange(b.Top10PercentMeanThroughput!.Value, f.Top10PercentMeanThroughput!.Value - boundary, f.Top10PercentMeanThroughput.Value + boundary);
    }

    [Fact]
    public async Task RunAsync_EndsAtItsDuration_WithNoEmptySecondAndNoSecondHoldingAnothersWrites_WhenTheTargetCompletesSynchronouslyAt256Workers()
    {
        var time = SteppedClock.Create();
        var target = new SynchronousCountingTarget(time);
        var closes = new CountingHealthSource();
        var runner = new BenchmarkRunner(time, (_, _) => target) { ClientHealth = _ => closes };
        var sink = new BlockingSink(time, blockAtSecond: null, TimeSpan.Zero);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 256 }, Stop = new StopOptions { DurationSeconds = 10 } };

        // Time moves from a thread of its own (the pool is the workers'), a step at a time; it does not pass a second's
        // boundary before the engine closed the second, nor the duration stop before the run ended (unless the engine never
        // ends it): what a second holds then depends on the engine alone.
        var duration = TimeSpan.FromSeconds(10);
        var result = await RunOnStepperThreadAsync(time, () => runner.RunAsync(plan, NoSecrets, sink), target, closes, holdAt: duration, stepOnWrites: true);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.True(result.Summary.Elapsed <= TimeSpan.FromSeconds(10.1), $"a 10 s run lasted {result.Summary.Elapsed.TotalSeconds:N2} s");
        var full = result.Seconds.Where(s => s.IsFull).ToList();
        Assert.Equal(10, full.Count);
        Assert.All(full, s => Assert.True(s.Ok > 0, $"second {s.Index} is empty"));
        Assert.Equal(target.Total, result.Seconds.Sum(s => s.Ok));
        foreach (var second in full)
        {
            // A write is counted by the target and recorded by the engine on one worker's thread, one after the other: only
            // those at a boundary's instant (time stands still there until the second is closed), and one per worker caught
            // between the two, may fall on the other side.
            var jitter = target.AtBoundary(second.Index) + target.AtBoundary(second.Index + 1) + plan.Load.Concurrency;
            Assert.InRange(second.Ok, target.InSecond(second.Index) - jitter, target.InSecond(second.Index) + jitter);
        }

        // The observer was handed the seconds while the run went on, not only once the workers let go of the pool's threads.
        Assert.True(sink.ReceivedAt[0] < duration, $"second 0 reached the observer at {sink.ReceivedAt[0]}");
    }

    [Fact]
    public async Task RunAsync_AShardThatStartsAfterTheCommonStart_StopsAtTheCommonEnd_AndSaysWhy()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 8 } };
        var commonStart = time.GetUtcNow() - TimeSpan.FromSeconds(3);

        var result = await SteppedClock.RunAsync(time, () => runner.RunAsync(plan, NoSecrets with { StartAt = commonStart }), TimeSpan.FromMinutes(2));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(5, result.Seconds.Count(s => s.IsFull));
        Assert.InRange(result.Summary.Elapsed.TotalSeconds, 5, 5.1);
        Assert.Equal("ran for 5 s: it started 3 s after the run's common start and stopped at its common end", result.StopReason);
    }

    [Fact]
    public async Task RunAsync_AShardThatWaitsForTheCommonStart_RunsItsWholeDuration()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 8 } };
        var commonStart = time.GetUtcNow() + TimeSpan.FromSeconds(2);

        var result = await SteppedClock.RunAsync(time, () => runner.RunAsync(plan, NoSecrets with { StartAt = commonStart }), TimeSpan.FromMinutes(2));

        Assert.Equal(8, result.Seconds.Count(s => s.IsFull));
        Assert.Equal("ran for 8 s", result.StopReason);
    }

    [Fact]
    public async Task RunAsync_TellsItsObserverTheSecondsItJoinedLate_WhenItsWaitForTheCommonStartEndsAfterIt()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 8 } };
        var observer = new SuspendedAfterAnnouncing();

        // Announced 1 s before the common start, then suspended until 3 s after it (time stands still until it announced).
        var running = Task.Run(() => runner.RunAsync(plan, NoSecrets with { StartAt = time.GetUtcNow() + TimeSpan.FromSeconds(1) }, observer));
        await observer.Announced.Task.WaitAsync(TimeSpan.FromMinutes(1));
        time.Advance(TimeSpan.FromSeconds(4));
        observer.Resume.SetResult();
        var result = await SteppedClock.RunAsync(time, () => running, TimeSpan.FromMinutes(2));

        Assert.Equal("ran for 5 s: it started 3 s after the run's common start and stopped at its common end", result.StopReason);
        Assert.Equal([3], observer.JoinedLate);
        Assert.Equal(result.Seconds.Select(s => s.Index), observer.Seconds);
    }

    private const int ClockConcurrency = 4;

    /// <summary>An observer in a process suspended as soon as it announced the start: it says when it announced, goes on
    /// when told to, and keeps where the clock started and which seconds it received.</summary>
    private sealed class SuspendedAfterAnnouncing : IRunObserver
    {
        public TaskCompletionSource Announced { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource Resume { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public ConcurrentQueue<int> JoinedLate { get; } = new();

        public ConcurrentQueue<int> Seconds { get; } = new();

        public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
        {
            Announced.SetResult();
            await Resume.Task;
        }

        public ValueTask OnClockStartedAsync(int joinedLateSeconds, CancellationToken cancellationToken)
        {
            Assert.Empty(Seconds);
            JoinedLate.Enqueue(joinedLateSeconds);
            return ValueTask.CompletedTask;
        }

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
        {
            Seconds.Enqueue(second.Index);
            return ValueTask.CompletedTask;
        }
    }

    private static async Task<(RunResult Result, BlockingSink Sink, PerSecondCountingTarget Target)> RunWithSinkAsync(int? blockAtSecond)
    {
        var time = SteppedClock.Create();
        var target = new PerSecondCountingTarget(time, TimeSpan.FromMilliseconds(5));
        var closes = new CountingHealthSource();
        var runner = new BenchmarkRunner(time, (_, _) => target) { ClientHealth = _ => closes };
        var sink = new BlockingSink(time, blockAtSecond, TimeSpan.FromSeconds(10));
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = ClockConcurrency }, Stop = new StopOptions { DurationSeconds = 15 } };
        // Time does not pass the duration stop before the run ended: a busy machine that is slow to wind the workers down
        // would otherwise let the stepper close one more full second of fake time (the last one is the engine's alone).
        var result = await RunOnStepperThreadAsync(time, () => runner.RunAsync(plan, NoSecrets, sink), target, closes,
            holdAt: TimeSpan.FromSeconds(plan.Stop.DurationSeconds!.Value), stepOnWrites: false);
        return (result, sink, target);
    }

    /// <summary>Runs <paramref name="work"/> while a thread of its own (not the pool's, which the workers may hold) moves
    /// <paramref name="time"/> a step forward about each millisecond. It does not pass a second's boundary of the run's clock
    /// before the engine sampled the client's health for that second (which it does as it closes it), nor
    /// <paramref name="holdAt"/> while the work runs: what a second holds then depends on the engine alone, however busy the
    /// machine. With <paramref name="stepOnWrites"/> it also waits for the target to have been written to since its last
    /// step: a busy machine may leave the workers without a core for longer than a step, and the writes that time would
    /// have held do not happen at all in fake time. After 20 s of real time held, it moves on all the same (an engine that
    /// never closes a second or ends a run then fails the test rather than hanging it).</summary>
    private static async Task<T> RunOnStepperThreadAsync<T>(FakeTimeProvider time, Func<Task<T>> work, StepCountingTarget target, CountingHealthSource closes, TimeSpan? holdAt, bool stepOnWrites)
    {
        var writtenAtLastStep = 0L;
        bool MayStep()
        {
            if (target.StartedAt is not { } start)
            {
                return true;
            }

            var next = time.GetElapsedTime(start) + SteppedClock.Step;
            return next <= TimeSpan.FromSeconds(closes.Samples + 1) && (holdAt is not { } hold || next <= hold) && (!stepOnWrites || target.Total > writtenAtLastStep);
        }

        var task = Task.Run(work);
        var stepper = new Thread(() =>
        {
            var refusedSince = (long?)null;
            var limit = SteppedClock.Start + TimeSpan.FromMinutes(2);
            while (!task.IsCompleted && time.GetUtcNow() < limit)
            {
                if (MayStep() || (refusedSince is { } since && System.Diagnostics.Stopwatch.GetElapsedTime(since) > TimeSpan.FromSeconds(20)))
                {
                    writtenAtLastStep = target.Total;
                    time.Advance(SteppedClock.Step);
                    refusedSince = null;
                }
                else
                {
                    refusedSince ??= System.Diagnostics.Stopwatch.GetTimestamp();
                }

                Thread.Sleep(1);
            }
        })
        {
            IsBackground = true,
            Name = "test clock stepper",
        };
        stepper.Start();
        var result = await task.WaitAsync(TimeSpan.FromMinutes(3));
        stepper.Join();
        return result;
    }

    /// <summary>An observer that keeps every second and the instant of the run's clock it received it at; at
    /// <c>blockAtSecond</c> it waits <c>block</c> of that clock before taking it (a database or Redis that went away).</summary>
    private sealed class BlockingSink(FakeTimeProvider time, int? blockAtSecond, TimeSpan block) : IRunObserver
    {
        private readonly DateTimeOffset _created = time.GetUtcNow();

        public List<SecondSnapshot> Seconds { get; } = [];

        /// <summary>When each second was received, from the sink's creation (the run's clock starts within a step of it).</summary>
        public ConcurrentDictionary<int, TimeSpan> ReceivedAt { get; } = new();

        public ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) => ValueTask.CompletedTask;

        public async ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
        {
            ReceivedAt[second.Index] = time.GetUtcNow() - _created;
            if (second.Index == blockAtSecond)
            {
                await Task.Delay(block, time, cancellationToken);
            }

            lock (Seconds)
            {
                Seconds.Add(second);
            }
        }
    }

    /// <summary>Counts the documents it accepts by the step of the run's clock they completed in.</summary>
    private abstract class StepCountingTarget(TimeProvider time) : TestTarget, IInsertTarget
    {
        private static readonly long StepsPerSecond = TimeSpan.TicksPerSecond / SteppedClock.Step.Ticks;
        private readonly ConcurrentDictionary<long, long> _byStep = new();
        private long _start = long.MinValue;
        private long _total;

        protected TimeProvider Time { get; } = time;

        public long? StartedAt => Interlocked.Read(ref _start) is var start && start != long.MinValue ? start : null;

        public long Total => Interlocked.Read(ref _total);

        void IInsertTarget.RunClockStarted(long startTimestamp) => Interlocked.Exchange(ref _start, startTimestamp);

        /// <summary>Documents that completed in second <paramref name="index"/> of the run's clock.</summary>
        public long InSecond(int index) => _byStep.Where(p => p.Key / StepsPerSecond == index).Sum(p => p.Value);

        /// <summary>Documents that completed at the instant second <paramref name="index"/> began (time moves in steps), or at
        /// the step after it (the clock's thread may be preempted between sampling the second and closing it).</summary>
        public long AtBoundary(int index) => _byStep.GetValueOrDefault(index * StepsPerSecond) + _byStep.GetValueOrDefault((index * StepsPerSecond) + 1);

        protected void Count(int documents)
        {
            var step = Time.GetElapsedTime(Interlocked.Read(ref _start)).Ticks / SteppedClock.Step.Ticks;
            _byStep.AddOrUpdate(step, documents, (_, n) => n + documents);
            Interlocked.Add(ref _total, documents);
        }
    }

    /// <summary>A service that answers each write after <c>latency</c> of the run's clock.</summary>
    private sealed class PerSecondCountingTarget(TimeProvider time, TimeSpan latency) : StepCountingTarget(time)
    {
        public override async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            await Task.Delay(latency, Time, cancellationToken);
            Count(documents.Count);
            return OperationOutcome.Ok(201, documents.Count, 1, 1);
        }
    }

    /// <summary>Like the no-op target, every write completes at once, on its caller's thread.</summary>
    private sealed class SynchronousCountingTarget(TimeProvider time) : StepCountingTarget(time)
    {
        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            Count(documents.Count);
            return Task.FromResult(OperationOutcome.Ok(201, documents.Count, 0, 0));
        }
    }

    /// <summary>A healthy client whose samples are counted: the engine samples once per second it closes, on its clock.</summary>
    private sealed class CountingHealthSource : IClientHealthSource
    {
        private int _samples;

        public int Samples => Volatile.Read(ref _samples);

        public void Start()
        {
        }

        public ClientHealth Sample(double processCpuPercent, TimeSpan clockLag)
        {
            Interlocked.Increment(ref _samples);
            return new ClientHealth();
        }

        public void Dispose()
        {
        }
    }
}
