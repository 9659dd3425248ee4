using System.Collections.Concurrent;

namespace BenchWeb.Execution;

/// <summary>The runs this process executes now, so a cancel made here stops one at once, in any phase (opening its
/// target included). The cancel request on the run row and Hangfire's job cancellation reach a run wherever it
/// executes, a second or so later.</summary>
public sealed class ExecutingRuns
{
    private readonly ConcurrentDictionary<long, CancellationTokenSource> _stops = new();

    /// <summary>Registers the run's stop signal until the returned handle is disposed.</summary>
    public IDisposable Add(long runId, CancellationTokenSource stop)
    {
        _stops[runId] = stop;
        return new Registration(this, runId);
    }

    /// <summary>Signals the run to stop; false when this process does not execute it.</summary>
    public bool Stop(long runId)
    {
        if (!_stops.TryGetValue(runId, out var stop))
        {
            return false;
        }

        try
        {
            stop.Cancel();
            return true;
        }
        catch (ObjectDisposedException)
        {
            return false;
        }
    }

    private sealed class Registration(ExecutingRuns runs, long runId) : IDisposable
    {
        public void Dispose() => runs._stops.TryRemove(runId, out _);
    }
}
