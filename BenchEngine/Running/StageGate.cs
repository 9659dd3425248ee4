namespace BenchEngine.Running;

/// <summary>The closed loop's gate over its workers: the stages' level in workers, looked at every
/// <see cref="LoadDriver.LevelPoll"/> by one ticker, and a signal each time it changes, so a worker above the level waits
/// for a change instead of every idle worker waking up to look.</summary>
internal sealed class StageGate(StageSchedule stages, TimeProvider time, long runStart)
{
    private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile int _level = stages.WorkersAt(0);

    /// <summary>Workers allowed to send now.</summary>
    public int Level => _level;

    /// <summary>Completes at the next change of <see cref="Level"/> (or when the ticker ends). Take it before reading the
    /// level again: a change between the two then still wakes the reader.</summary>
    public Task Changed => Volatile.Read(ref _changed).Task;

    /// <summary>Follows the stages until <paramref name="stop"/>; then releases every waiting worker.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var level = stages.WorkersAt(time.GetElapsedTime(runStart).TotalSeconds);
                if (level != _level)
                {
                    _level = level;
                    Interlocked.Exchange(ref _changed, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
                }

                await Task.Delay(LoadDriver.LevelPoll, time, stop).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Issuing stopped, or every worker is done.
        }
        finally
        {
            Volatile.Read(ref _changed).TrySetResult();
        }
    }
}
