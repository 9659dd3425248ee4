using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchWeb.Data;
using CsvHelper;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Guard;
using BenchWeb.Live;

namespace BenchWeb.Compare;

/// <summary>Runs side by side: the first is the baseline, every figure of the others is also shown as a change from it.</summary>
public sealed class RunComparison
{
    private RunComparison(IReadOnlyList<ComparedRun> runs, IReadOnlyList<long> missingIds)
    {
        Runs = runs;
        MissingIds = missingIds;
        Rows = BuildRows(runs);
        Differences = ConfigurationDiff.Compare(runs.Select(r => r.Run).ToList());
    }

    /// <summary>The runs found, in the order asked for.</summary>
    public IReadOnlyList<ComparedRun> Runs { get; }

    /// <summary>Ids asked for that are not in the database.</summary>
    public IReadOnlyList<long> MissingIds { get; }

    /// <summary>The summary table, figure by figure.</summary>
    public IReadOnlyList<ComparisonRow> Rows { get; }

    /// <summary>The settings and client environment values that differ between the runs.</summary>
    public ConfigurationDiff Differences { get; }

    /// <summary>"Run #7 does not exist." for the ids not found; null when all were.</summary>
    public string? MissingMessage => MissingIds.Count switch
    {
        0 => null,
        1 => $"Run #{MissingIds[0]} does not exist.",
        _ => $"Runs {string.Join(", ", MissingIds.Select(id => $"#{id}"))} do not exist.",
    };

    /// <summary>Loads the runs (and, for charts and CSV, their seconds) in the order of <paramref name="ids"/>.</summary>
    public static async Task<RunComparison> LoadAsync(BenchDbContext db, IReadOnlyList<long> ids, bool includeSeconds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(ids);
        var list = ids.ToList();
        var found = await db.Runs.AsNoTracking().Where(r => list.Contains(r.Id)).ToDictionaryAsync(r => r.Id, cancellationToken);
        var seconds = includeSeconds
            ? (await db.RunSeconds.AsNoTracking().Where(s => list.Contains(s.RunId)).OrderBy(s => s.RunId).ThenBy(s => s.Index).ToListAsync(cancellationToken))
                .ToLookup(s => s.RunId)
            : null;
        var runs = list.Where(found.ContainsKey)
            .Select(id => new ComparedRun(found[id], seconds?[id].ToList() ?? []))
            .ToList();
        return new RunComparison(runs, list.Where(id => !found.ContainsKey(id)).ToList());
    }

    /// <summary>The per-second series of every run, for the overlaid charts.</summary>
    public IReadOnlyList<ComparisonSeries> Series() => Runs.Select(run =>
    {
        // A last, partial second of a few milliseconds is no rate; like the live charts, the overlay leaves it out.
        var seconds = run.Seconds.Where(s => s.DurationSeconds >= RunLiveState.ShortestRateSecond).ToList();
        return new ComparisonSeries(
            run.Id,
            run.Label,
            seconds.Select(s => Math.Round(s.ElapsedSeconds - s.DurationSeconds, 3)).ToList(),
            seconds.Select(s => Rate(s.Ok, s) ?? 0).ToList(),
            seconds.Select(s => Rate(s.Throttled, s) ?? 0).ToList(),
            seconds.Select(s => run.RequestUnitsReported ? Rate(s.RequestUnits, s) ?? 0 : (double?)null).ToList(),
            seconds.Select(s => s.LatencyP50Ms).ToList(),
            seconds.Select(s => s.LatencyP99Ms).ToList());
    }).ToList();

    /// <summary>One row per run per second: run, profile, second, elapsed, inserts/s, throttled/s, RU/s, p50, p99.</summary>
    public async Task WriteSecondsCsvAsync(TextWriter writer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(writer);
        await using var csv = new CsvWriter(writer, CsvFormat.Configuration, leaveOpen: true);
        foreach (var header in (string[])["RunId", "Profile", "Second", "ElapsedSeconds", "InsertsPerSecond", "ThrottledPerSecond", "RequestUnitsPerSecond", "LatencyP50Ms", "LatencyP99Ms"])
        {
            csv.WriteField(header);
        }

        await csv.NextRecordAsync();
        foreach (var run in Runs)
        {
            cancellationToken.ThrowIfCancellationRequested();
            foreach (var s in run.Seconds)
            {
                csv.WriteField(run.Id);
                csv.WriteField(run.Run.ProfileName);
                csv.WriteField(s.Index);
                csv.WriteField(Math.Round(s.ElapsedSeconds, 3));
                csv.WriteField(Rate(s.Ok, s));
                csv.WriteField(Rate(s.Throttled, s));
                csv.WriteField(run.RequestUnitsReported ? Rate(s.RequestUnits, s) : null);
                csv.WriteField(s.LatencyP50Ms is { } p50 ? Math.Round(p50, 3) : (double?)null);
                csv.WriteField(s.LatencyP99Ms is { } p99 ? Math.Round(p99, 3) : (double?)null);
                await csv.NextRecordAsync();
            }
        }

        await csv.FlushAsync();
    }

    private static double? Rate(double count, RunSecondEntity second) =>
        second.DurationSeconds >= RunLiveState.ShortestRateSecond ? Math.Round(count / second.DurationSeconds, 3) : null;

    /// <summary>The run's client-limited seconds; null ("—") for a run whose seconds had no client health and none counted
    /// (a summary stored before they were counted), whose 0 is not known.</summary>
    internal static double? ClientLimitedSeconds(RunSummary summary) =>
        summary.ClientLimitedSeconds > 0 || summary.WorstClientSecond is not null ? summary.ClientLimitedSeconds : null;

    private static List<ComparisonRow> BuildRows(IReadOnlyList<ComparedRun> runs)
    {
        ComparisonRow Text(string key, string label, Func<ComparedRun, string> text) =>
            new(key, label, runs.Select(text).ToList(), runs.Select(_ => (double?)null).ToList(), runs.Select(_ => (ComparisonChange?)null).ToList(), "", null);

        ComparisonRow Figure(string key, string label, string format, bool? higherIsBetter, Func<RunSummary, double?> value, Func<ComparedRun, string>? missing = null) =>
            FigureOf(key, label, format, higherIsBetter, r => r.Summary is { } s && (missing is null || r.RequestUnitsReported) ? value(s) : null, missing);

        // A partial run's summary made from its saved seconds has no latency: "—", not 0.
        ComparisonRow Latency(string key, string label, Func<LatencySummary, double?> value) =>
            FigureOf(key, label, "N1", false, r => r.Latency is { } latency ? value(latency) : null);

        ComparisonRow FigureOf(string key, string label, string format, bool? higherIsBetter, Func<ComparedRun, double?> value, Func<ComparedRun, string>? missing = null)
        {
            var values = runs.Select(value).ToList();
            var baseline = values.Count > 0 ? values[0] : null;
            var changes = values.Select((v, i) => i > 0 && v is { } current && baseline is { } first ? ComparisonChange.Between(current, first) : null).ToList();
            var texts = values.Select((v, i) => v is { } number ? number.ToString(format, CultureInfo.InvariantCulture)
                : runs[i].Summary is not null && missing is not null ? missing(runs[i]) : "—").ToList();
            return new ComparisonRow(key, label, texts, values, changes, format, higherIsBetter);
        }

        // A target without request units has none ("n/a", never 0, also for runs stored before the summary said so); a
        // throughput that could not be read prices nothing ("unknown").
        static string RequestUnitsMissing(ComparedRun run) => run.RequestUnitsReported ? "—" : "n/a";
        static string CostMissing(ComparedRun run) => run.RequestUnitsReported ? "unknown" : "n/a";

        // Every response follows a sent request: responses beside none sent are a summary written before requests sent
        // and given up were counted, whose 0 given up is not known ("—").
        static bool CountsRequests(RunSummary s) => s.TotalIssued > 0 || s.TotalOkRequests + s.TotalThrottled + s.TotalErrors == 0;

        return
        [
            Text("target", "Target", r => r.Run.TargetDescription ?? r.Run.TargetKind.DisplayName()),
            Text("status", "Status", r => string.Join(" · ", new[] { r.Run.Status.ToString(), r.Run.Verdict, r.IsPartial ? "partial" : null }.OfType<string>())),
            Figure("elapsed", "Elapsed (s)", "N1", null, s => s.Elapsed.TotalSeconds),
            Figure("inserted", "Inserted", "N0", null, s => s.TotalOk),
            Figure("given-up", "Given up after throttle retries", "N0", false, s => CountsRequests(s) ? s.TotalGivenUp : null),
            Figure("dropped", "Due but not sent (open loop)", "N0", false, s => s.OfferedRequestsPerSecond is null ? null : s.TotalUnsent),
            Figure("avg-throughput", "Average throughput (inserts/s)", "N1", true, s => s.AverageThroughput),
            Figure("mean-per-second", "Mean of per-second throughput (/s)", "N1", true, s => PerSecondFigures.Of(s, s.MeanPerSecondThroughput)),
            Figure("p99-per-second", "P99 of per-second throughput (/s)", "N1", true, s => PerSecondFigures.Of(s, s.P99PerSecondThroughput)),
            Figure("top-seconds", "Mean of the top 10 % of seconds (/s)", "N1", true, s => s.Top10PercentMeanThroughput),
            Text("latency-coverage", "Latency percentiles cover", r => r.Summary is null ? "—" : "successful operations; failed and throttled attempts excluded"),
            Latency("latency-p50", "Latency P50 (ms)", l => l.P50Ms),
            Latency("latency-p75", "Latency P75 (ms)", l => l.P75Ms),
            Latency("latency-p90", "Latency P90 (ms)", l => l.P90Ms),
            Latency("latency-p95", "Latency P95 (ms)", l => l.P95Ms),
            Latency("latency-p98", "Latency P98 (ms)", l => l.P98Ms),
            Latency("latency-p99", "Latency P99 (ms)", l => l.P99Ms),
            Latency("latency-p999", "Latency P99.9 (ms)", l => l.P999Ms),
            Latency("latency-max", "Latency max (ms)", l => l.MaxMs),
            Figure("ru-per-second", "RU/s", "N0", null, s => s.RequestUnitsPerSecond, RequestUnitsMissing),
            Figure("ru-per-insert", "RU per insert", "N2", false, s => s.RequestUnitsPerInsert, RequestUnitsMissing),
            Figure("throttled", "Throttled (%)", "N2", false, s => s.ThrottledFraction * 100),
            Figure("cost-per-month", "Estimated cost per month ($)", "N2", false, s => s.EstimatedCostPerMonth, CostMissing),
            Figure("client-limited", "Client-limited seconds", "N0", false, ClientLimitedSeconds),
            Text("worst-client-second", "Worst client second", r => r.Summary is null ? "—" : ClientSecondText.Describe(r.Summary.WorstClientSecond) ?? "not measured for this run"),
        ];
    }
}
