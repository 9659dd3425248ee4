namespace BenchEngine.Running;

/// <summary>
/// "Stop issuing": a flag the load reads before every request, the instant it was set, and a token for whatever waits
/// (a delay, a back-off, a throttle's retry-after).
/// </summary>
/// <remarks>The run's clock sets it from its own thread (a duration or auto-stop) and must never run the load's code there:
/// cancelling a token runs the continuations of everything waiting on it, so from the clock the token is cancelled on the
/// thread pool. The flag takes effect at once either way: a worker whose writes complete synchronously sees it before its
/// next request.</remarks>
internal sealed class StopSignal(TimeProvider time) : IDisposable
{
    private readonly CancellationTokenSource _cancellation = new();
    private int _set;
    private long _at;

    public CancellationToken Token => _cancellation.Token;

    public bool IsSet => Volatile.Read(ref _set) != 0;

    /// <summary>A duration stop's planned instant (a timestamp), set before the load starts when the run has one: a request
    /// due at or after it is not the run's, even when the clock's thread sets the signal a moment later.</summary>
    public long? PlannedAt { get; set; }

    /// <summary>When it was set (a <see cref="TimeProvider"/> timestamp); meaningful once <see cref="IsSet"/>.</summary>
    public long At => Interlocked.Read(ref _at);

    /// <summary>Sets the signal; false when it was already set.</summary>
    /// <param name="fromClock">Called from the run's clock: cancel the token elsewhere.</param>
    /// <param name="at">The instant issuing stops (a duration stop's planned instant); default now.</param>
    public bool Set(bool fromClock = false, long? at = null)
    {
        var instant = at ?? time.GetTimestamp();
        if (Interlocked.CompareExchange(ref _set, 1, 0) != 0)
        {
            return false;
        }

        Interlocked.Exchange(ref _at, instant);
        if (fromClock)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static c => Cancel(c), _cancellation, preferLocal: false);
        }
        else
        {
            Cancel(_cancellation);
        }

        return true;
    }

    private static void Cancel(CancellationTokenSource cancellation)
    {
        try
        {
            cancellation.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The run ended before the pool got to it: nothing waits any more.
        }
    }

    public void Dispose() => _cancellation.Dispose();
}
