namespace BenchWeb.Compare;

/// <summary>One run's per-second series for the overlaid charts. <see cref="Time"/> is each second's start since
/// the run's own start, so every run begins at t = 0 whatever the hour it ran.</summary>
public sealed record ComparisonSeries(
    long RunId,
    string Label,
    IReadOnlyList<double> Time,
    IReadOnlyList<double> Inserts,
    IReadOnlyList<double> Throttled,
    IReadOnlyList<double?> RequestUnits,
    IReadOnlyList<double?> LatencyP50,
    IReadOnlyList<double?> LatencyP99);
