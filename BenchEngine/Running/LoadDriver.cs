using System.Threading.RateLimiting;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>Offers load by one of the <see cref="LoadModel"/>s until the work source is empty or issuing stops.
/// Every model but the unbounded one backs off after failed writes (<see cref="FailureBackoff"/>).</summary>
internal static class LoadDriver
{
    public static Task RunAsync(LoadOptions load, WorkSource work, OperationExecutor executor, TimeProvider time, CancellationToken stopIssuing) =>
        load.Model switch
        {
            LoadModel.ClosedLoop => ClosedLoopAsync(load.Concurrency, work, executor, time, stopIssuing),
            LoadModel.Waves => WavesAsync(load.Concurrency, work, executor, time, stopIssuing),
            LoadModel.OpenLoop => OpenLoopAsync(load.RatePerSecond!.Value, load.Concurrency, work, executor, time, stopIssuing),
            LoadModel.Unbounded => UnboundedAsync(work, executor, time),
            _ => throw new ArgumentOutOfRangeException(nameof(load), load.Model, "Unknown load model."),
        };

    /// <summary>A sliding window: each worker sends its next request as soon as its previous one returns.</summary>
    private static Task ClosedLoopAsync(int workers, WorkSource work, OperationExecutor executor, TimeProvider time, CancellationToken stop)
    {
        return Task.WhenAll(Enumerable.Range(0, workers).Select(_ => Task.Run(WorkerAsync, CancellationToken.None)));

        async Task WorkerAsync()
        {
            // Each worker backs off on its own: a worker whose writes fail slows down, the others carry on.
            var backoff = new FailureBackoff(time);
            while (await backoff.WaitAsync(stop).ConfigureAwait(false) && work.TryTake(out var documents))
            {
                backoff.Record(await executor.ExecuteAsync(documents, time.GetTimestamp()).ConfigureAwait(false));
            }
        }
    }

    /// <summary>Waves with a barrier: the next wave starts only when the slowest request of this one returned.</summary>
    private static async Task WavesAsync(int width, WorkSource work, OperationExecutor executor, TimeProvider time, CancellationToken stop)
    {
        var wave = new List<Task<OutcomeKind?>>(width);
        var backoff = new FailureBackoff(time);
        while (await backoff.WaitAsync(stop).ConfigureAwait(false))
        {
            wave.Clear();
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
    /// rate, the achieved rate and the shortfall between them are all reported.</remarks>
    private static async Task OpenLoopAsync(double rate, int maxOutstanding, WorkSource work, OperationExecutor executor, TimeProvider time, CancellationToken stop)
    {
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions
        {
            PermitLimit = maxOutstanding,
            QueueLimit = 0,
        });
        var outstanding = new HashSet<Task>();
        var backoff = new FailureBackoff(time);
        var start = time.GetTimestamp();
        var ticksPerRequest = time.TimestampFrequency / rate;
        try
        {
            for (long i = 0; !stop.IsCancellationRequested; i++)
            {
                var intended = start + (long)(i * ticksPerRequest);
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
                if (now - beforeBackoff >= ticksPerRequest && (long)((now - start) / ticksPerRequest) - i is > 0 and var behind)
                {
                    executor.Dropped(behind);
                    i += behind;
                    intended = start + (long)(i * ticksPerRequest);
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
