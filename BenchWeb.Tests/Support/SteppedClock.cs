using System.Diagnostics;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Support;

/// <summary>Runs time-driven work on a <see cref="FakeTimeProvider"/> that moves forward in small steps while the work
/// runs: the engine's seconds, duration stops, back-off waits, grace periods and a simulated service's latencies then
/// happen in fake time, as exactly as the steps allow, and a run of many fake seconds takes a fraction of one.</summary>
internal static class SteppedClock
{
    /// <summary>The start of every stepped clock.</summary>
    public static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    /// <summary>Steps of 10 ms: finer than any wait the engine makes, coarse enough that a run of a minute is 6,000 steps.</summary>
    public static readonly TimeSpan Step = TimeSpan.FromMilliseconds(10);

    /// <summary>The longest real time one step waits for the work to react to it: work that ends or stops waiting on the
    /// clock never arms a timer again, and this bounds what that costs a step.</summary>
    private static readonly TimeSpan MaxSettle = TimeSpan.FromMilliseconds(50);

    /// <summary>A clock at <see cref="Start"/>.</summary>
    public static FakeTimeProvider Create() => new SteppedTimeProvider(Start);

    /// <summary>Runs <paramref name="work"/>, moving <paramref name="time"/> forward a step at a time, each after the work
    /// had a moment of real time to react, until it ends.</summary>
    /// <exception cref="TimeoutException">The work was still running after <paramref name="limit"/> of fake time.</exception>
    public static async Task<T> RunAsync<T>(FakeTimeProvider time, Func<Task<T>> work, TimeSpan limit)
    {
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(work);
        var task = Task.Run(work);
        var stepped = time as SteppedTimeProvider;
        var armed = stepped?.ArmedTimers;
        var advanced = TimeSpan.Zero;
        while (true)
        {
            await SettleAsync(task, stepped, armed);
            if (task.IsCompleted)
            {
                break;
            }

            if (advanced >= limit)
            {
                throw new TimeoutException($"The work was still running after {limit.TotalSeconds:N0} s of fake time.");
            }

            armed = stepped?.ArmedTimers;
            time.Advance(Step);
            advanced += Step;
        }

        return await task;
    }

    /// <summary>A moment of real time, so that what the last step released runs before the next. On a busy machine the work a
    /// step released (a response, the next request, the clock closing a second) waits for a core: the next step then waits
    /// until the work armed as many timers again as before the step (it waits on the clock again) and the thread pool has
    /// nothing queued, up to <see cref="MaxSettle"/>. Otherwise fake time would run ahead of the work and stretch its
    /// latencies and seconds by however long this machine kept it from a core.</summary>
    private static async Task SettleAsync(Task task, SteppedTimeProvider? time, int? armedBefore)
    {
        var settling = Stopwatch.StartNew();
        do
        {
            await Task.WhenAny(task, Task.Delay(1));
        }
        while (!task.IsCompleted
            && (ThreadPool.PendingWorkItemCount > 0 || time?.ArmedTimers < armedBefore)
            && settling.Elapsed < MaxSettle);
    }
}
