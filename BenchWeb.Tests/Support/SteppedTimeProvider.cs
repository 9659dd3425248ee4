using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Support;

/// <summary>A <see cref="FakeTimeProvider"/> that knows how many of its timers are armed (due at some instant and not yet
/// fired, cancelled or disposed). Work on a fake clock waits on such timers: after a step fires some, the work has
/// reacted once it armed its next ones, which is what <see cref="SteppedClock"/> waits for before the next step.</summary>
internal sealed class SteppedTimeProvider(DateTimeOffset start) : FakeTimeProvider(start)
{
    private int _armed;

    /// <summary>Timers that will fire when the clock reaches their time.</summary>
    public int ArmedTimers => Volatile.Read(ref _armed);

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);

        // Armed and given its callback before the fake clock sees it: a timer already due fires as it is created.
        var timer = new ArmedTimer(this, period, () => callback(state));
        timer.Arm(dueTime);
        timer.Inner = base.CreateTimer(static s => ((ArmedTimer)s!).Fire(), timer, dueTime, period);
        return timer;
    }

    private sealed class ArmedTimer(SteppedTimeProvider owner, TimeSpan period, Action callback) : ITimer
    {
        private readonly Lock _gate = new();
        private TimeSpan _period = period;
        private bool _armed;

        public ITimer? Inner { get; set; }

        public void Arm(TimeSpan dueTime) => Set(dueTime != Timeout.InfiniteTimeSpan);

        public void Fire()
        {
            // A one-shot timer is spent once it fired; a periodic one stays armed.
            if (_period == Timeout.InfiniteTimeSpan || _period == TimeSpan.Zero)
            {
                Set(false);
            }

            callback();
        }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (_gate)
            {
                _period = period;
            }

            Arm(dueTime);
            return Inner!.Change(dueTime, period);
        }

        public void Dispose()
        {
            Set(false);
            Inner?.Dispose();
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }

        private void Set(bool armed)
        {
            lock (_gate)
            {
                if (armed == _armed)
                {
                    return;
                }

                _armed = armed;
                Interlocked.Add(ref owner._armed, armed ? 1 : -1);
            }
        }
    }
}
