using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// A polite client: after a failed write (not a throttle, which <see cref="ThrottleGate"/> handles) the sender waits
/// before its next request, 100 ms doubling up to 5 s, and a success resets the wait. A dead endpoint then gets a few
/// requests a second from each worker instead of thousands, and a live one is not slowed at all.
/// </summary>
/// <remarks>One per closed-loop worker; one shared by the whole open loop or all waves. Safe to use from many threads.</remarks>
internal sealed class FailureBackoff(TimeProvider time)
{
    public static readonly TimeSpan First = TimeSpan.FromMilliseconds(100);

    public static readonly TimeSpan Longest = TimeSpan.FromSeconds(5);

    private readonly Lock _gate = new();
    private TimeSpan _last;
    private long? _resumeAt;

    /// <summary>Counts a request's final outcome (null: it never completed, e.g. the run stopped).</summary>
    public void Record(OutcomeKind? outcome)
    {
        lock (_gate)
        {
            switch (outcome)
            {
                case OutcomeKind.Ok:
                    _last = TimeSpan.Zero;
                    _resumeAt = null;
                    break;
                case OutcomeKind.Error:
                    _last = _last == TimeSpan.Zero ? First : TimeSpan.FromTicks(Math.Min(_last.Ticks * 2, Longest.Ticks));
                    _resumeAt = time.GetTimestamp() + (long)(_last.TotalSeconds * time.TimestampFrequency);
                    break;
            }
        }
    }

    /// <summary>Whether a back-off is under way now (a request sent now would have to wait).</summary>
    public bool IsPending
    {
        get
        {
            lock (_gate)
            {
                return _resumeAt is { } at && time.GetTimestamp() < at;
            }
        }
    }

    /// <summary>Waits out the current back-off, if any.</summary>
    /// <returns>False when <paramref name="stop"/> fired while waiting: nothing more should be sent.</returns>
    public async ValueTask<bool> WaitAsync(CancellationToken stop)
    {
        long? resumeAt;
        lock (_gate)
        {
            resumeAt = _resumeAt;
        }

        if (resumeAt is not { } at)
        {
            return !stop.IsCancellationRequested;
        }

        var wait = time.GetElapsedTime(time.GetTimestamp(), at);
        if (wait <= TimeSpan.Zero)
        {
            return !stop.IsCancellationRequested;
        }

        try
        {
            await Task.Delay(wait, time, stop).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return false;
        }
    }
}
