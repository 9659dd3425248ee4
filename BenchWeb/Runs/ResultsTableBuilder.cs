using System.Globalization;
using System.Text;
using BenchEngine.Running;
using BenchEngine.Targets;
using CsvHelper;

namespace BenchWeb.Runs;

/// <summary>A results table across runs in the style of the seeds' published tables (target and key settings,
/// latency, throughput, RU per insert, throttling, cost), as rows, GitHub Markdown and CSV.
/// Numbers are written with the invariant culture so a table reads and parses the same everywhere.</summary>
public sealed class ResultsTableBuilder
{
    /// <summary>The columns, as both the Markdown and the CSV name them.</summary>
    public static readonly IReadOnlyList<string> Headers =
    [
        "Run", "Target", "Connection", "Bulk", "Concurrency", "Load model", "Batch", "RU/s",
        "Avg latency (ms)", "P50 latency (ms)", "P75 latency (ms)", "P90 latency (ms)", "P95 latency (ms)", "P98 latency (ms)", "P99 latency (ms)",
        "P99.9 latency (ms)", "Max latency (ms)", "Avg inserts/s", "P99 of per-second inserts/s", "Top 10 % of seconds inserts/s", "RU/insert",
        "Throttled %", "Est. cost/month ($)",
    ];

    /// <summary>What the latency columns cover, said under the Markdown table and beside the HTML one.</summary>
    public const string LatencyNote = "Latency over successful operations; failed and throttled attempts excluded. n/a: the target has no request units; unknown: its provisioned throughput could not be read.";

    /// <summary>The CSV's columns: as <see cref="Headers"/>, with the run split into its id and profile for tools.</summary>
    public static readonly IReadOnlyList<string> CsvHeaders = ["Run id", "Profile", .. Headers.Skip(1)];

    // Which Markdown columns hold numbers (right-aligned).
    private static readonly bool[] NumericColumns = [false, false, false, false, true, false, true, .. Enumerable.Repeat(true, 16)];

    public ResultsTableBuilder(IEnumerable<ComparedRun> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        Rows = runs.Select(ToRow).ToList();
    }

    public IReadOnlyList<ResultsRow> Rows { get; }

    /// <summary>A GitHub Markdown table, one line per run.</summary>
    public string ToMarkdown()
    {
        var markdown = new StringBuilder();
        Line(markdown, Headers);
        Line(markdown, NumericColumns.Select(numeric => numeric ? "---:" : "---"));
        foreach (var row in Rows)
        {
            Line(markdown, Cells(row, forMarkdown: true).Select(EscapeMarkdown));
        }

        return markdown.Append('\n').Append(LatencyNote).Append('\n').ToString();
    }

    /// <summary>The same table as CSV: a header line, then one line per run; numbers unformatted.</summary>
    public string ToCsv()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        using (var csv = new CsvWriter(text, CsvFormat.Configuration))
        {
            foreach (var header in CsvHeaders)
            {
                csv.WriteField(header);
            }

            csv.NextRecord();
            foreach (var row in Rows)
            {
                foreach (var cell in Cells(row, forMarkdown: false))
                {
                    csv.WriteField(cell);
                }

                csv.NextRecord();
            }
        }

        return text.ToString();
    }

    /// <summary>A row's cells as the Markdown shows them (rounded, "—" where empty), for an HTML table.</summary>
    public static IReadOnlyList<string> DisplayCells(ResultsRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return Cells(row, forMarkdown: true).ToList();
    }

    private static ResultsRow ToRow(ComparedRun run)
    {
        var plan = run.Plan;
        var summary = run.Summary;
        var cosmos = plan?.Target.Kind == TargetKind.CosmosSql ? plan.Target.Cosmos : null;
        return new ResultsRow
        {
            RunId = run.Id,
            Profile = run.Run.ProfileName,
            Target = TargetName(plan?.Target.Kind ?? run.Run.TargetKind),
            ConnectionMode = cosmos?.ConnectionMode.ToString(),
            Bulk = cosmos?.Bulk,
            Concurrency = plan?.Load.Concurrency,
            LoadModel = plan is null ? null
                : plan.Load.Model == LoadModel.OpenLoop ? FormattableString.Invariant($"{plan.Load.Model} {plan.Load.RatePerSecond:0.##}/s")
                : plan.Load.Model.ToString(),
            BatchSize = plan?.Load.BatchSize,
            RequestUnits = run.ProvisionedRequestUnits,
            RequestUnitsReported = run.RequestUnitsReported,
            AverageLatencyMs = summary?.Latency.MeanMs,
            P50LatencyMs = summary?.Latency.P50Ms,
            P75LatencyMs = summary?.Latency.P75Ms,
            P90LatencyMs = summary?.Latency.P90Ms,
            P95LatencyMs = summary?.Latency.P95Ms,
            P98LatencyMs = summary?.Latency.P98Ms,
            P99LatencyMs = summary?.Latency.P99Ms,
            P999LatencyMs = summary?.Latency.P999Ms,
            MaxLatencyMs = summary?.Latency.MaxMs,
            AverageThroughput = summary?.AverageThroughput,
            P99PerSecondThroughput = summary?.P99PerSecondThroughput,
            Top10PercentMeanThroughput = summary?.Top10PercentMeanThroughput,
            RequestUnitsPerInsert = summary?.RequestUnitsPerInsert,
            ThrottledPercent = summary?.ThrottledFraction * 100,
            EstimatedCostPerMonth = summary?.EstimatedCostPerMonth,
        };
    }

    private static string TargetName(TargetKind kind) => kind switch
    {
        TargetKind.Simulated => "Simulated Cosmos DB (model)",
        TargetKind.CosmosSql => "Cosmos DB SQL",
        TargetKind.TableStorage => "Table Storage",
        TargetKind.CosmosTable => "Cosmos DB Table API",
        _ => "No-op",
    };

    // Markdown rounds for reading (thousands separated); CSV keeps more digits, unseparated, for tools.
    private static IEnumerable<string> Cells(ResultsRow row, bool forMarkdown)
    {
        string Number(double? value, int decimals) => value is not { } v ? (forMarkdown ? "—" : "")
            : forMarkdown ? v.ToString("N" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture)
            : Math.Round(v, decimals + 2).ToString(CultureInfo.InvariantCulture);

        string Text(string? value) => value ?? (forMarkdown ? "—" : "");

        // Request-unit figures: "n/a" for a target without them, "unknown" for a throughput that could not be read (Markdown);
        // empty in CSV, never 0.
        string RequestUnits(double? value, int decimals, bool missingIsUnknown = false) => !row.RequestUnitsReported ? (forMarkdown ? "n/a" : "")
            : value is null && missingIsUnknown && forMarkdown ? "unknown" : Number(value, decimals);

        if (forMarkdown)
        {
            yield return FormattableString.Invariant($"#{row.RunId} {row.Profile}");
        }
        else
        {
            yield return row.RunId.ToString(CultureInfo.InvariantCulture);
            yield return row.Profile;
        }

        yield return row.Target;
        yield return Text(row.ConnectionMode);
        yield return Text(row.Bulk is { } bulk ? (bulk ? "yes" : "no") : null);
        yield return Number(row.Concurrency, 0);
        yield return Text(row.LoadModel);
        yield return Number(row.BatchSize, 0);
        yield return RequestUnits(row.RequestUnits, 0, missingIsUnknown: row.AverageThroughput is not null);
        foreach (var latency in (double?[])[row.AverageLatencyMs, row.P50LatencyMs, row.P75LatencyMs, row.P90LatencyMs, row.P95LatencyMs, row.P98LatencyMs, row.P99LatencyMs, row.P999LatencyMs, row.MaxLatencyMs])
        {
            yield return Number(latency, 1);
        }

        yield return Number(row.AverageThroughput, 0);
        yield return Number(row.P99PerSecondThroughput, 0);
        yield return Number(row.Top10PercentMeanThroughput, 0);
        yield return RequestUnits(row.RequestUnitsPerInsert, 2);
        yield return Number(row.ThrottledPercent, 2);
        yield return RequestUnits(row.EstimatedCostPerMonth, 2, missingIsUnknown: row.AverageThroughput is not null);
    }

    private static void Line(StringBuilder markdown, IEnumerable<string> cells) =>
        markdown.Append("| ").AppendJoin(" | ", cells).Append(" |\n");

    // A pipe would end the cell early; a line break would end the row.
    private static string EscapeMarkdown(string cell) =>
        cell.Replace("|", "\\|", StringComparison.Ordinal).Replace("\r", " ", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}
