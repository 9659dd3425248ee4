namespace BenchEngine.Diagnostics;

/// <summary>What a closed second changed in the run's slow requests (<see cref="Running.IRunObserver.OnSlowRequestsAsync"/>):
/// the entries it added, and those it pushed out of the run's bounds (faster ones, to make room).</summary>
/// <param name="Added">The new entries, each with its number in the run.</param>
/// <param name="Removed">The numbers of entries no longer kept.</param>
public sealed record SlowRequestChange(IReadOnlyList<NumberedSlowRequest> Added, IReadOnlyList<int> Removed)
{
    /// <summary>Whether nothing changed.</summary>
    public bool IsEmpty => Added.Count == 0 && Removed.Count == 0;
}

/// <summary>A kept slow request and its number in the run (from 0, in the order they were kept), by which a later change
/// removes it.</summary>
public sealed record NumberedSlowRequest(int Number, SlowRequest Request);
