using System.Diagnostics;
using System.Runtime.InteropServices;

namespace BenchEngine.Running;

/// <summary>How the open loop waits for its next request to fall due. On the system clock under Linux the loop runs on a
/// thread of its own and sleeps until the due instant with the kernel's high-resolution timer (<c>clock_nanosleep</c>, about
/// 0.1 ms late on a quiet machine) instead of the runtime's timer queue (a millisecond's granularity, and a thread-pool
/// thread to wake): a request is sent within a fraction of a millisecond of its intended start, and a busy thread pool
/// cannot hold the schedule up. Elsewhere (another clock, as in tests, or another OS) the loop awaits the time provider.</summary>
internal abstract partial class OpenLoopPacer
{
    /// <summary>Whether the loop runs on a thread of its own, every wait blocking it.</summary>
    public abstract bool OwnThread { get; }

    /// <summary>The pacer for <paramref name="time"/>.</summary>
    public static OpenLoopPacer For(TimeProvider time) =>
        // The timespec below has 64-bit fields: a 64-bit process only.
        time == TimeProvider.System && OperatingSystem.IsLinux() && Environment.Is64BitProcess && Stopwatch.Frequency == KernelClock.NanosecondsPerSecond
            ? new KernelClock()
            : new TimerQueue(time);

    /// <summary>Returns when <paramref name="timestamp"/> (of the time provider) is reached; throws
    /// <see cref="OperationCanceledException"/> when <paramref name="stop"/> is cancelled first.</summary>
    public abstract ValueTask WaitUntilAsync(long timestamp, CancellationToken stop);

    /// <summary>Waits out a pending back-off (<see cref="FailureBackoff.WaitAsync"/>).</summary>
    public abstract ValueTask<bool> WaitOutAsync(FailureBackoff backoff, CancellationToken stop);

    /// <summary>Returns only by throwing <see cref="OperationCanceledException"/>, when <paramref name="stop"/> is cancelled.</summary>
    public abstract ValueTask WaitForStopAsync(CancellationToken stop);

    private sealed class TimerQueue(TimeProvider time) : OpenLoopPacer
    {
        public override bool OwnThread => false;

        public override ValueTask WaitUntilAsync(long timestamp, CancellationToken stop)
        {
            var wait = time.GetElapsedTime(time.GetTimestamp(), timestamp);
            return wait > TimeSpan.Zero ? new ValueTask(Task.Delay(wait, time, stop)) : ValueTask.CompletedTask;
        }

        public override ValueTask<bool> WaitOutAsync(FailureBackoff backoff, CancellationToken stop) => backoff.WaitAsync(stop);

        public override ValueTask WaitForStopAsync(CancellationToken stop) => new(Task.Delay(Timeout.InfiniteTimeSpan, time, stop));
    }

    /// <summary>Blocks the loop's own thread: a wait longer than <see cref="CoarseAbove"/> first on the stop's handle (so a stop
    /// wakes it), the rest in <c>clock_nanosleep</c> to the absolute instant on the monotonic clock the stopwatch reads.</summary>
    private sealed partial class KernelClock : OpenLoopPacer
    {
        public const long NanosecondsPerSecond = 1_000_000_000;

        private const int ClockMonotonic = 1;
        private const int TimerAbsoluteTime = 1;
        private const int Interrupted = 4; // EINTR

        // Waits longer than this are mostly slept on the stop's handle (millisecond granularity), leaving this much to the kernel timer.
        private static readonly long CoarseAbove = 2 * Stopwatch.Frequency / 1_000;

        public override bool OwnThread => true;

        public override ValueTask WaitUntilAsync(long timestamp, CancellationToken stop)
        {
            var remaining = timestamp - Stopwatch.GetTimestamp();
            if (remaining > CoarseAbove)
            {
                var coarse = TimeSpan.FromMilliseconds(Math.Floor((remaining - CoarseAbove) * 1_000.0 / Stopwatch.Frequency));
                if (stop.WaitHandle.WaitOne(coarse))
                {
                    stop.ThrowIfCancellationRequested();
                }
            }

            stop.ThrowIfCancellationRequested();
            var until = new Timespec { Seconds = timestamp / NanosecondsPerSecond, Nanoseconds = timestamp % NanosecondsPerSecond };
            // A signal can wake it early: it sleeps on to the same instant. Any other error (none is expected for a valid
            // instant on this clock) returns at once, and the request is sent a little early rather than the loop stalling.
            while (Stopwatch.GetTimestamp() < timestamp && ClockNanosleep(ClockMonotonic, TimerAbsoluteTime, in until, IntPtr.Zero) == Interrupted)
            {
            }

            return ValueTask.CompletedTask;
        }

        public override ValueTask<bool> WaitOutAsync(FailureBackoff backoff, CancellationToken stop)
        {
            // Asked before every request: with no back-off pending it has already completed, and nothing is allocated.
            var wait = backoff.WaitAsync(stop);
            return wait.IsCompleted ? wait : ValueTask.FromResult(wait.AsTask().GetAwaiter().GetResult());
        }

        public override ValueTask WaitForStopAsync(CancellationToken stop)
        {
            stop.WaitHandle.WaitOne();
            stop.ThrowIfCancellationRequested();
            return ValueTask.CompletedTask;
        }

        // int clock_nanosleep(clockid_t, int flags, const struct timespec *request, struct timespec *remain): returns the error
        // number itself (0 when the instant was reached).
        [LibraryImport("libc", EntryPoint = "clock_nanosleep")]
        private static partial int ClockNanosleep(int clockId, int flags, in Timespec request, IntPtr remain);

        [StructLayout(LayoutKind.Sequential)]
        private struct Timespec
        {
            public long Seconds;
            public long Nanoseconds;
        }
    }
}
