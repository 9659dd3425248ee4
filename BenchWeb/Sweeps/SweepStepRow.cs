using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;

namespace BenchWeb.Sweeps;

/// <summary>One step of a sweep as its lists and exports show it: the value, the run that made it and its figures.</summary>
public sealed record SweepStepRow
{
    public int Index { get; init; }

    public string? Series { get; init; }

    public string Value { get; init; } = "";

    public long RunId { get; init; }

    public RunStatus Status { get; init; }

    /// <summary>Documents per second: the mean of the run's full seconds.</summary>
    public double? Throughput { get; init; }

    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    public double? ThrottledPercent { get; init; }

    public double? RequestUnitsPerSecond { get; init; }

    public double? MaxClientCpuPercent { get; init; }

    /// <summary>The knee of its series.</summary>
    public bool Recommended { get; init; }

    /// <summary>The steps of a sweep from its runs, in step order, each marked when it is its series' knee.</summary>
    public static IReadOnlyList<SweepStepRow> From(SweepOptions sweep, IEnumerable<RunEntity> runs, IReadOnlyList<KneeResult> knees)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentNullException.ThrowIfNull(knees);
        var recommended = knees.Select(k => k.RecommendedIndex).OfType<int>().ToHashSet();
        var perSeries = sweep.Values.Count;
        return [.. runs.Where(r => r.SweepStep is not null).OrderBy(r => r.SweepStep).Select(run =>
        {
            var index = run.SweepStep!.Value;
            var summary = run.ReadSummary();
            var series = sweep.Series;
            return new SweepStepRow
            {
                Index = index,
                Series = series[Math.Min(index / perSeries, series.Count - 1)],
                Value = sweep.Values[index % perSeries],
                RunId = run.Id,
                Status = run.Status,
                Throughput = summary is null ? null : summary.MeanPerSecondThroughput > 0 ? summary.MeanPerSecondThroughput : summary.AverageThroughput,
                P50Ms = summary?.Latency.P50Ms,
                P99Ms = summary?.Latency.P99Ms,
                ThrottledPercent = summary?.ThrottledFraction * 100,
                RequestUnitsPerSecond = summary?.RequestUnitsPerSecond,
                MaxClientCpuPercent = summary?.MaxClientCpuPercent,
                Recommended = recommended.Contains(index),
            };
        })];
    }
}
