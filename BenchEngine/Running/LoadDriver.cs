using System.Threading.RateLimiting;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>Offers load by one of the <see cref="LoadModel"/>s until the work source is empty or issuing stops.
/// Every model but the unbounded one backs off after failed writes (<see cref="FailureBackoff"/>).</summary>
internal static class LoadDriver
{
    /// <summary>How often a worker above the stage's level looks at the level again: the load follows a stage within this.</summary>
    internal static readonly TimeSpan LevelPoll = TimeSpan.FromMilliseconds(50);

    // runStart is the run clock's start (a timestamp of the time provider): stages and the open loop's schedule count from it.
    public static Task RunAsync(LoadOptions load, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, CancellationToken stopIssuing)
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
    private static async Task ClosedLoopAsync(int workers, StageSchedule? stages, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, CancellationToken stop)
    {
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
            while (await backoff.WaitAsync(stop).ConfigureAwait(false) && await WaitForLevelAsync(k).ConfigureAwait(false))
            {
                if (!work.TryTake(out var documents))
                {
                    if (gate is not null)
                    {
                        await done.CancelAsync().ConfigureAwait(false);
                    }

                    return;
                }

                backoff.Record(await executor.ExecuteAsync(documents, time.GetTimestamp()).ConfigureAwait(false));
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
    private static async Task WavesAsync(int maxWidth, StageSchedule? stages, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, CancellationToken stop)
    {
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
            while (wave.Count < width && work.TryTake(out var documents))
            {
                wave.Add(executor.ExecuteAsync(documents, start));
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
    /// to protect the client. A request that is due while the cap is reached, or while the client backs off
    /// after failures, is not sent late: it is dropped and counted (k6's "dropped iterations"), so the offered
    /// rate, the achieved rate and the shortfall between them are all reported.
    /// With stages the rate varies: request i is due where the integral of the stages' rate from the run's start reaches i
    /// (<see cref="StageSchedule.SecondsOfRequest"/>), computed from the run's clock, never accumulated from one request to the next.</remarks>
    private static async Task OpenLoopAsync(double? constantRate, StageSchedule? stages, int maxOutstanding, WorkSource work, OperationExecutor executor, TimeProvider time, long runStart, CancellationToken stop)
    {
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
        long Due(long i) => stages is null ? start + (long)(i * ticksPerRequest) : start + (long)Math.Min(stages.SecondsOfRequest(i) * frequency, long.MaxValue / 2);
        // The last request due by a timestamp, and the interval between requests at that instant.
        long LastDue(long now) => stages is null ? (long)((now - start) / ticksPerRequest) : (long)Math.Floor(stages.RequestsDueBy((now - start) / (double)frequency) + 1e-9);
        double Interval(long now) => stages is null ? ticksPerRequest : frequency / Math.Max(stages.LevelAt((now - start) / (double)frequency), 1e-9);
        try
        {
            for (long i = 0; !stop.IsCancellationRequested; i++)
            {
                var intended = Due(i);
                var wait = time.GetElapsedTime(time.GetTimestamp(), intended);
                if (wait > TimeSpan.Zero)
                {
                    await Task.Delay(wait, time, stop).ConfigureAwait(false);
                }

                var beforeBackoff = time.GetTimestamp();
                if (!await backoff.WaitAsync(stop).ConfigureAwait(false))
                {
                    break;
                }

                // The requests that fell due while the client backed off after failures are dropped, not sent in a burst
                // afterwards: the next one sent is the last one due.
                var now = time.GetTimestamp();
                if (now - beforeBackoff >= Interval(now) && LastDue(now) - i is > 0 and var behind)
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
                    break;
                }

                var task = RunAndReleaseAsync(documents, intended, lease);
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

        await Task.WhenAll(outstanding).ConfigureAwait(false);

        async Task RunAndReleaseAsync(IReadOnlyList<Workloads.Document> documents, long intended, RateLimitLease lease)
        {
            using (lease)
            {
                backoff.Record(await executor.ExecuteAsync(documents, intended).ConfigureAwait(false));
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
            all.Add(executor.ExecuteAsync(documents, start));
        }

        return Task.WhenAll(all);
    }
}
