namespace BenchWeb.Data;

/// <summary>Reads a run's saved seconds after <paramref name="afterIndex"/> (-1: from the first) and before
/// <paramref name="beforeIndex"/> (null: to the last), in order, at most <paramref name="take"/>: the runs' read side
/// (<c>RunReader.SecondsAsync</c>), for the parts below it that follow a run (the live feed's follower, the hub).</summary>
public delegate Task<IReadOnlyList<RunSecondEntity>> SavedSecondsReader(long runId, int afterIndex, int? beforeIndex, int take, CancellationToken cancellationToken);
