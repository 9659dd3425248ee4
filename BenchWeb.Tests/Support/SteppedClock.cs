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

    /// <summary>A clock at <see cref="Start"/>.</summary>
    public static FakeTimeProvider Create() => new(Start);

    /// <summary>Runs <paramref name="work"/>, moving <paramref name="time"/> forward a step at a time, each after the work
    /// had a moment of real time to react, until it ends.</summary>
    /// <exception cref="TimeoutException">The work was still running after <paramref name="limit"/> of fake time.</exception>
    public static async Task<T> RunAsync<T>(FakeTimeProvider time, Func<Task<T>> work, TimeSpan limit)
    {
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(work);
        var task = Task.Run(work);
        var advanced = TimeSpan.Zero;
        while (!task.IsCompleted)
        {
            if (advanced >= limit)
            {
                throw new TimeoutException($"The work was still running after {limit.TotalSeconds:N0} s of fake time.");
            }

            // A moment of real time, so that what the last step released runs before the next.
            await Task.WhenAny(task, Task.Delay(1));
            time.Advance(Step);
            advanced += Step;
        }

        return await task;
    }
}
