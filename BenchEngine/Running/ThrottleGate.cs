namespace BenchEngine.Running;

/// <summary>
/// Shared back-off: once the service says "wait" (retry-after), no worker sends until that time.
/// Without it, every worker keeps hitting a partition whose budget is spent and collects its own 429.
/// </summary>
internal sealed class ThrottleGate(TimeProvider time, bool enabled)
{
    private readonly long _origin = time.GetTimestamp();
    private long _resumeAtTicks;

    public void PauseFor(TimeSpan delay)
    {
        if (!enabled || delay <= TimeSpan.Zero)
        {
            return;
        }

        var resumeAt = Now() + delay.Ticks;
        long current;
        do
        {
            current = Interlocked.Read(ref _resumeAtTicks);
            if (current >= resumeAt)
            {
                return;
            }
        }
        while (Interlocked.CompareExchange(ref _resumeAtTicks, resumeAt, current) != current);
    }

    public Task WaitAsync(CancellationToken cancellationToken)
    {
        if (!enabled)
        {
            return Task.CompletedTask;
        }

        var wait = Interlocked.Read(ref _resumeAtTicks) - Now();
        return wait <= 0 ? Task.CompletedTask : Task.Delay(TimeSpan.FromTicks(wait), time, cancellationToken);
    }

    private long Now() => time.GetElapsedTime(_origin).Ticks;
}
