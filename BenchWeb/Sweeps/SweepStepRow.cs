using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;

namespace BenchWeb.Sweeps;

/// <summary>One step of a sweep as its lists and exports show it: the value, the run that made it, its figures, and what
/// the knee rule made of it (client-limited, re-run and why).</summary>
public sealed record SweepStepRow
{
    public int Index { get; init; }

    public string? Series { get; init; }

    public string Value { get; init; } = "";

    public long RunId { get; init; }

    /// <summary>A second run of the step, made because its first crossed the knee rule unconfirmed.</summary>
    public bool IsReRun { get; init; }

    public RunStatus Status { get; init; }

    /// <summary>The run's average throughput: documents ÷ elapsed, the figure its run page and API give
    /// (<c>averageThroughput</c>); the basis of <see cref="RequestUnitsPerSecond"/>.</summary>
    public double? Throughput { get; init; }

    /// <summary>Documents per second over the steady window's service seconds: what the knee judges; null when the window
    /// holds fewer than <see cref="SweepStepResult.MinJudgedSeconds"/> of them.</summary>
    public double? SteadyThroughput { get; init; }

    /// <summary>RU per second over the same seconds as <see cref="SteadyThroughput"/>: what the knee's headroom is of.</summary>
    public double? SteadyRequestUnitsPerSecond { get; init; }

    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>The p99 the knee judged (the median of the steady window's per-second p99s); known once the sweep has ended.</summary>
    public double? SteadyP99Ms { get; init; }

    public double? ThrottledPercent { get; init; }

    /// <summary>The run's RU ÷ elapsed: on the basis of <see cref="Throughput"/>.</summary>
    public double? RequestUnitsPerSecond { get; init; }

    public double? MaxClientCpuPercent { get; init; }

    /// <summary>Seconds the client, not the service, was the limit in.</summary>
    public int ClientLimitedSeconds { get; init; }

    /// <summary>The step's client was the limit: its p99 and throughput are not the service's.</summary>
    public bool ClientLimited { get; init; }

    /// <summary>The run the knee judges the step on: its re-run when that measured something, else its first run.</summary>
    public bool Judged { get; init; } = true;

    /// <summary>The knee of its series (on the run the knee judged).</summary>
    public bool Recommended { get; init; }

    /// <summary>What the knee rule made of the step, in words ("re-run: p99 rose past the rule at this step only; the re-run
    /// did not confirm it", "client-limited: seconds 4–9: the client was starved: …"); empty when nothing.</summary>
    public string Note { get; init; } = "";

    /// <summary>The steps of a sweep from its runs, in step order (a step's re-run right after it), each marked when it is
    /// its series' knee.</summary>
    public static IReadOnlyList<SweepStepRow> From(SweepOptions sweep, IEnumerable<RunEntity> runs, IReadOnlyList<KneeResult> knees)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentNullException.ThrowIfNull(knees);
        var judgedSteps = knees.SelectMany(k => k.Steps).ToList();
        var judged = KneeDetector.Judged(judgedSteps).ToDictionary(s => s.Index);
        var recommended = knees.Select(k => k.RecommendedIndex).OfType<int>().ToHashSet();
        var notes = knees.SelectMany(k => k.Notes).ToList();
        var perSeries = sweep.Values.Count;
        var series = sweep.Series;
        return [.. runs.Where(r => r.SweepStep is not null).GroupBy(r => r.SweepStep!.Value).OrderBy(g => g.Key).SelectMany(g => g.OrderBy(r => r.Id).Select((run, n) =>
        {
            var index = g.Key;
            var reRun = n > 0;
            var summary = run.ReadSummary();
            var step = new SweepStep(index, series[Math.Min(index / perSeries, series.Count - 1)], sweep.Values[index % perSeries], new RunPlan());

            // Once the sweep has ended its knee holds the figures it judged (the steady p99 needs the run's seconds).
            var figures = judgedSteps.LastOrDefault(s => s.Index == index && s.IsReRun == reRun)
                ?? (summary is null ? null : SweepStepResult.From(step, run.Status, summary, null, sweep.Knee));
            var judgedHere = judged.TryGetValue(index, out var j) ? j.IsReRun == reRun : !reRun;
            return new SweepStepRow
            {
                Index = index,
                Series = step.Series,
                Value = step.Value,
                RunId = run.Id,
                IsReRun = reRun,
                Status = run.Status,
                Throughput = summary?.AverageThroughput,
                SteadyThroughput = figures?.SteadyThroughput,
                SteadyRequestUnitsPerSecond = figures?.SteadyThroughput is null ? null : figures.SteadyRequestUnitsPerSecond,
                P50Ms = summary?.Latency.P50Ms,
                P99Ms = summary?.Latency.P99Ms,
                SteadyP99Ms = figures?.SteadyP99Ms,
                ThrottledPercent = summary?.ThrottledFraction * 100,
                RequestUnitsPerSecond = summary?.RequestUnitsPerSecond,
                MaxClientCpuPercent = summary?.MaxClientCpuPercent,
                ClientLimitedSeconds = summary?.ClientLimitedSeconds ?? 0,
                ClientLimited = figures?.ClientLimited ?? false,
                Judged = judgedHere,
                Recommended = recommended.Contains(index) && judgedHere,
                Note = NoteFor(notes, index, reRun, figures),
            };
        }))];
    }

    private static string NoteFor(List<KneeStepNote> notes, int index, bool reRun, SweepStepResult? figures)
    {
        var mine = notes.Where(n => n.Index == index && n.ReRun == reRun).Select(n => n.Text).ToList();
        if (mine.Count == 0 && figures is { ClientLimited: true })
        {
            // While the sweep runs, before its knee: the step's own verdict.
            mine.Add($"client-limited: {figures.ClientLimitReason}");
        }

        return string.Join("; ", mine);
    }
}
