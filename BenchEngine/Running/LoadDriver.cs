using System.Threading.RateLimiting;
using BenchEngine.Metrics;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>Offers load by one of the <see cref="LoadModel"/>s until the work source is empty or issuing stops.
/// Every model but the unbounded one backs off after failed writes (<see cref="FailureBackoff"/>).</summary>
internal static class LoadDriver
{
    /// <summary>How often a worker above the stage's level looks at the level again: the load follows a stage within this.</summary>
    internal static readonly TimeSpan LevelPoll = TimeSpan.FromMilliseconds(50);

    /// <summary>A closed-loop worker whose writes complete synchronously lets the pool's other work run after this many.</summary>
    private const int YieldEvery = 128;

    // runStart is the run clock's start (a timestamp of the time provider): stages and the open loop's schedule count from it.
    public static Task RunAsync(LoadOptions load, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, StopSignal stopIssuing)
    {
        var stages = load.Stages.Count == 0 || load.Model == LoadModel.Unbounded
            ? null
            : new StageSchedule(load.Stages, stage => (load.Model == LoadModel.OpenLoop ? stage.RatePerSecond : stage.Concurrency) ?? 0);
        return load.Model switch
        {
            LoadModel.ClosedLoop => ClosedLoopAsync(load.PeakConcurrency, stages, work, executor, time, runStart, stopIssuing),
            LoadModel.Waves => WavesAsync(load.PeakConcurrency, stages, work, executor, time, runStart, stopIssuing),
            LoadModel.OpenLoop => OpenLoopAsync(load.RatePerSecond, stages, load.Concurrency, work, executor, time, runStart, stopIssuing),
            LoadModel.Unbounded => UnboundedAsync(work, executor, time),
            _ => throw new ArgumentOutOfRangeException(nameof(load), load.Model, "Unknown load model."),
        };
    }

    /// <summary>A sliding window: each worker sends its next request as soon as its previous one returns.</summary>
    /// <remarks>With stages, every worker the highest stage needs is started; worker <c>k</c> sends only while the level is
    /// above <c>k</c>, and otherwise waits for the level to change (<see cref="StageGate"/>, which looks every
    /// <see cref="LevelPoll"/>), so the number of workers sending follows the stages within a poll (plus the request a worker
    /// had outstanding when its level dropped).</remarks>
    private static async Task ClosedLoopAsync(int workers, StageSchedule? stages, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, StopSignal stopSignal)
    {
        var stop = stopSignal.Token;

        // With stages, the gate ticks until issuing stops or the documents run out (before the stages do): then the workers
        // waiting above the level end too.
        using var done = CancellationTokenSource.CreateLinkedTokenSource(stop);
        var gate = stages is null ? null : new StageGate(stages, time, runStart);
        var ticking = gate is null ? Task.CompletedTask : Task.Run(() => gate.RunAsync(done.Token), CancellationToken.None);
        try
        {
            await Task.WhenAll(Enumerable.Range(0, workers).Select(k => Task.Run(() => WorkerAsync(k), CancellationToken.None))).ConfigureAwait(false);
        }
        finally
        {
            await done.CancelAsync().ConfigureAwait(false);
            await ticking.ConfigureAwait(false);
        }

        async Task WorkerAsync(int k)
        {
            // Each worker backs off on its own: a worker whose writes fail slows down, the others carry on.
            var backoff = new FailureBackoff(time);
            var synchronous = 0;
            while (await backoff.WaitAsync(stop).ConfigureAwait(false) && await WaitForLevelAsync(k).ConfigureAwait(false))
            {
                // The flag, not only the token: a worker whose writes complete synchronously never waits on the token.
                if (stopSignal.IsSet)
                {
                    return;
                }

                if (!work.TryTake(out var documents))
                {
                    if (gate is not null)
                    {
                        await done.CancelAsync().ConfigureAwait(false);
                    }

                    return;
                }

                var write = executor.ExecuteAsync(documents, time.GetTimestamp());
                if (write.IsCompleted && ++synchronous % YieldEvery == 0)
                {
                    // Writes that complete at once never give the thread back: without a turn now and then, the workers
                    // would keep every pool thread, and the hand-off of seconds, the host's hub and heartbeat would wait for
                    // the run's end.
                    await Task.Yield();
                }

                backoff.Record(await write.ConfigureAwait(false));
            }
        }

        async Task<bool> WaitForLevelAsync(int k)
        {
            while (gate is not null)
            {
                var changed = gate.Changed;
                if (gate.Level > k)
                {
                    return true;
                }

                if (done.IsCancellationRequested)
                {
                    return false;
                }

                // The gate's ticker releases every waiting worker when it ends.
                await changed.ConfigureAwait(false);
            }

            return true;
        }
    }

    /// <summary>Waits one <see cref="LevelPoll"/>; false when issuing stopped meanwhile.</summary>
    private static async Task<bool> PollAsync(TimeProvider time, CancellationToken stop)
    {
        try
        {
            await Task.Delay(LevelPoll, time, stop).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return false;
        }
    }

    /// <summary>Waves with a barrier: the next wave starts only when the slowest request of this one returned. With stages a
    /// wave is as wide as the level when it starts.</summary>
    private static async Task WavesAsync(int maxWidth, StageSchedule? stages, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, StopSignal stopSignal)
    {
        var stop = stopSignal.Token;
        var wave = new List<Task<OutcomeKind?>>(maxWidth);
        var backoff = new FailureBackoff(time);
        while (await backoff.WaitAsync(stop).ConfigureAwait(false))
        {
            wave.Clear();
            var width = stages?.WorkersAt(time.GetElapsedTime(runStart).TotalSeconds) ?? maxWidth;
            if (width == 0)
            {
                if (!await PollAsync(time, stop).ConfigureAwait(false))
                {
                    return;
                }

                continue;
            }

            var start = time.GetTimestamp();
            while (wave.Count < width && !stopSignal.IsSet && work.TryTake(out var documents))
            {
                wave.Add(executor.ExecuteAsync(documents, start).AsTask());
            }

            if (wave.Count == 0)
            {
                return;
            }

            // A wave with any success resets the back-off; one where writes failed and none succeeded extends it.
            var outcomes = await Task.WhenAll(wave).ConfigureAwait(false);
            backoff.Record(outcomes.Contains(OutcomeKind.Ok) ? OutcomeKind.Ok : outcomes.Contains(OutcomeKind.Error) ? OutcomeKind.Error : null);
        }
    }

    /// <summary>
    /// Requests start on a fixed schedule whether or not earlier ones returned, and each one's latency
    /// counts from its scheduled start, so a slow service cannot hide its delays by slowing the client.
    /// </summary>
    /// <remarks>The schedule is computed, not taken from a token bucket, so that the intended start of
    /// request i is exactly start + i / rate. A <see cref="ConcurrencyLimiter"/> caps outstanding requests
    /// to protect the client. A request is dropped (k6's "dropped iterations") only when it falls due while the cap is
    /// reached or while the client backs off after failures: then the offered rate, the achieved rate and the shortfall
    /// between them are all reported. A pause of the client itself (a collection, a preemption, a busy machine) drops
    /// nothing: the sender catches up, sending the requests that fell due late (counted as sent late) with their latency
    /// still measured from their intended start. When issuing stops, the requests due before that instant and not sent are
    /// counted as not started, so every request due is in exactly one bucket.
    /// With stages the rate varies: request i is due where the integral of the stages' rate from the run's start reaches i
    /// (<see cref="StageSchedule.SecondsOfRequest"/>), computed from the run's clock, never accumulated from one request to the next.
    /// The loop sleeps until each request is due by an <see cref="OpenLoopPacer"/>: on the system clock under Linux on a thread
    /// of its own with the kernel's high-resolution timer, and every request already due when it wakes is sent at once.</remarks>
    private static Task OpenLoopAsync(double? constantRate, StageSchedule? stages, int maxOutstanding, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, StopSignal stopSignal)
    {
        // On a pacer of its own thread every wait of the loop blocks that thread, so the loop runs there from start to end
        // (only the wait for its last requests to return, after it, goes back to the pool).
        var pacer = OpenLoopPacer.For(time);
        return pacer.OwnThread
            ? Task.Factory.StartNew(
                () => OpenLoopCoreAsync(constantRate, stages, maxOutstanding, work, executor, time, runStart, stopSignal, pacer),
                CancellationToken.None,
                TaskCreationOptions.LongRunning,
                TaskScheduler.Default).Unwrap()
            : OpenLoopCoreAsync(constantRate, stages, maxOutstanding, work, executor, time, runStart, stopSignal, pacer);
    }

    private static async Task OpenLoopCoreAsync(
        double? constantRate, StageSchedule? stages, int maxOutstanding, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, StopSignal stopSignal, OpenLoopPacer pacer)
    {
        var stop = stopSignal.Token;
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions
        {
            PermitLimit = maxOutstanding,
            QueueLimit = 0,
        });
        var outstanding = new HashSet<Task>();
        var backoff = new FailureBackoff(time);
        var start = runStart;
        var frequency = time.TimestampFrequency;
        var ticksPerRequest = constantRate is { } rate ? frequency / rate : 0;
        var lateTicks = (long)(SecondSnapshot.LateAfter.TotalSeconds * frequency);
        long Due(long i) => stages is null ? start + (long)(i * ticksPerRequest) : start + (long)Math.Min(stages.SecondsOfRequest(i) * frequency, long.MaxValue / 2);

        // How many requests fall due strictly before a timestamp.
        long DueBefore(long at) => Math.Max(0, stages is null
            ? (long)Math.Ceiling(((at - start) / ticksPerRequest) - 1e-9)
            : (long)Math.Ceiling(stages.RequestsDueBy((at - start) / (double)frequency) - 1e-9));
        long i = 0;
        var ended = false;
        try
        {
            for (; !stopSignal.IsSet; i++)
            {
                var intended = Due(i);
                if (stopSignal.PlannedAt is { } end && intended >= end)
                {
                    // Due at or after the planned stop: not the run's. Nothing more is sent; the clock says when to stop.
                    await pacer.WaitForStopAsync(stop).ConfigureAwait(false);
                }

                await pacer.WaitUntilAsync(intended, stop).ConfigureAwait(false);

                // Only a real back-off drops what fell due meanwhile; the next request sent is then the first one due after it.
                var backingOff = backoff.IsPending;
                if (!await pacer.WaitOutAsync(backoff, stop).ConfigureAwait(false) || stopSignal.IsSet)
                {
                    break;
                }

                var now = time.GetTimestamp();
                if (backingOff && DueBefore(now) - 1 - i is > 0 and var behind)
                {
                    executor.Dropped(behind);
                    i += behind;
                    intended = Due(i);
                }

                var lease = limiter.AttemptAcquire();
                if (!lease.IsAcquired)
                {
                    lease.Dispose();
                    executor.Dropped(1);
                    continue;
                }

                if (!work.TryTake(out var documents))
                {
                    lease.Dispose();
                    ended = true;
                    break;
                }

                var task = RunAndReleaseAsync(documents, intended, now - intended > lateTicks, lease);
                outstanding.Add(task);
                if (outstanding.Count > 4 * maxOutstanding)
                {
                    outstanding.RemoveWhere(t => t.IsCompleted);
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Stop requested between two scheduled starts.
        }

        // Every request due before the stop and not yet sent or dropped was not started.
        if (!ended && stopSignal.IsSet && DueBefore(stopSignal.At) - i is > 0 and var notStarted)
        {
            executor.NotStarted(notStarted);
        }

        await Task.WhenAll(outstanding).ConfigureAwait(false);

        async Task RunAndReleaseAsync(IReadOnlyList<Workloads.Document> documents, long intended, bool late, RateLimitLease lease)
        {
            using (lease)
            {
                backoff.Record(await executor.ExecuteAsync(documents, intended, late).ConfigureAwait(false));
            }
        }
    }

    /// <summary>Every write at once, as a program that awaits <c>Task.WhenAll</c> over all its inserts does. No back-off:
    /// every request is started before any returns (the total is at most 1,000,000).</summary>
    private static Task UnboundedAsync(WorkSource work, OperationExecutor executor, TimeProvider time)
    {
        var start = time.GetTimestamp();
        var all = new List<Task>();
        while (work.TryTake(out var documents))
        {
            all.Add(executor.ExecuteAsync(documents, start).AsTask());
        }

        return Task.WhenAll(all);
    }
}
