using System.Globalization;
using System.Text;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Profiles;
using BenchWeb.Provenance;
using CsvHelper;
using BenchWeb.Guard;

namespace BenchWeb.Compare;

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
        "Throttled %", "Est. cost/month ($)", "Client-limited seconds", "Worst client second",
    ];

    /// <summary>What the latency columns cover, said under the Markdown table and beside the HTML one.</summary>
    public const string LatencyNote = "Latency over successful operations; failed and throttled attempts excluded. n/a: the target has no request units; unknown: its provisioned throughput could not be read.";

    /// <summary>The CSV's columns: as <see cref="Headers"/>, with the run split into its id and profile for tools,
    /// whether its figures are partial (the run was cancelled, interrupted or failed) and where the run came from (its
    /// metadata as <c>commit=1a2b; branch=main</c>).</summary>
    public static readonly IReadOnlyList<string> CsvHeaders = ["Run id", "Profile", .. Headers.Skip(1), "Partial", "Metadata"];

    /// <summary>The figures' columns (after the run and its settings, before the client's), as the page shows them beside a
    /// compact settings column; the page says the client's figures in a line under each run (<see cref="ClientLine"/>).</summary>
    public static IReadOnlyList<string> FigureHeaders { get; } = [.. Headers.Take(Headers.Count - ClientColumns).Skip(FirstFigure)];

    /// <summary>The figures' columns as the page heads them: latency and throughput columns under one group heading each,
    /// with short headings (the full heading is the cell's title), so that every figure fits a laptop's screen.</summary>
    public static IReadOnlyList<FigureColumn> FigureColumns { get; } = [.. FigureHeaders.Select(DescribeFigure)];

    /// <summary><see cref="FigureColumns"/> as runs of neighbouring columns sharing a group (a column without one alone).</summary>
    public static IReadOnlyList<IReadOnlyList<FigureColumn>> FigureGroups { get; } = GroupNeighbours(FigureColumns);

    private const int FirstFigure = 8;

    // The last columns: client-limited seconds and the worst client second.
    private const int ClientColumns = 2;

    // Which Markdown columns hold numbers (right-aligned).
    private static readonly bool[] NumericColumns = [false, false, false, false, true, false, true, .. Enumerable.Repeat(true, 17), false];

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

    private static List<IReadOnlyList<FigureColumn>> GroupNeighbours(IReadOnlyList<FigureColumn> columns)
    {
        var groups = new List<IReadOnlyList<FigureColumn>>();
        foreach (var column in columns)
        {
            if (column.Group is not null && groups.Count > 0 && groups[^1][0].Group == column.Group)
            {
                ((List<FigureColumn>)groups[^1]).Add(column);
            }
            else
            {
                groups.Add(new List<FigureColumn> { column });
            }
        }

        return groups;
    }

    private static FigureColumn DescribeFigure(string header)
    {
        const string LatencySuffix = " latency (ms)";
        return header switch
        {
            _ when header.EndsWith(LatencySuffix, StringComparison.Ordinal) => new(header, "Latency (ms), successful operations", header[..^LatencySuffix.Length]),
            "Avg inserts/s" => new(header, "Inserts/s", "Avg"),
            "P99 of per-second inserts/s" => new(header, "Inserts/s", "P99 of seconds"),
            "Top 10 % of seconds inserts/s" => new(header, "Inserts/s", "Top 10 % of seconds"),
            _ => new(header, null, header),
        };
    }

    /// <summary>The figures of a row as the page shows them, in the order of <see cref="FigureHeaders"/>.</summary>
    public static IReadOnlyList<string> FigureCells(ResultsRow row) => [.. DisplayCells(row).Skip(FirstFigure).Take(FigureHeaders.Count)];

    /// <summary>The client's figures of a row in words, for the line the page shows under the run: "Client: limited in 3
    /// seconds (left out of the per-second figures) · worst second 24: the client was starved: …"; null when not measured.</summary>
    public static string? ClientLine(ResultsRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        if (row.WorstClientSecond is null && row.ClientLimitedSeconds is null)
        {
            return null;
        }

        var limited = row.ClientLimitedSeconds switch
        {
            null => "client health not measured",
            0 => "never the limit",
            { } seconds => FormattableString.Invariant($"limited in {seconds:N0} {(seconds == 1 ? "second" : "seconds")}")
                + (row.PerSecondLeftOut > 0 ? FormattableString.Invariant($" ({row.PerSecondLeftOut:N0} left out of the per-second figures)") : " (none left out of the per-second figures: no full second was the service's)"),
        };
        return "Client: " + limited + (row.WorstClientSecond is { } worst ? " · worst " + worst : "");
    }

    /// <summary>The run's settings in a few short lines for the page's compact settings column: the connection (Cosmos DB
    /// for NoSQL), how the load was offered, and the provisioned RU/s. The Markdown and CSV keep a column for each.</summary>
    public static IReadOnlyList<string> SettingsLines(ResultsRow row)
    {
        ArgumentNullException.ThrowIfNull(row);
        var lines = new List<string>();
        if (row.ConnectionMode is { } mode)
        {
            lines.Add(mode + (row.Bulk == true ? " · bulk" : ""));
        }

        if (row.Load is { } load)
        {
            lines.Add(load);
        }

        if (row.RequestUnits is { } ru)
        {
            lines.Add(ru.ToString("N0", CultureInfo.InvariantCulture) + " RU/s");
        }

        return lines;
    }

    private static ResultsRow ToRow(ComparedRun run)
    {
        var plan = run.Plan;
        var summary = run.Summary;
        var kind = plan?.Target.Kind ?? run.Run.TargetKind;
        return new ResultsRow
        {
            RunId = run.Id,
            Profile = run.Run.ProfileName,
            Target = kind.DisplayName(),
            ConnectionMode = plan is null ? null : (kind.Module as IClientConnection)?.ConnectionText(plan.Target),
            Bulk = plan is null ? null : (kind.Module as IClientConnection)?.ClientGroupsWrites(plan.Target),
            Concurrency = plan?.Load.Concurrency,
            LoadModel = plan is null ? null : PlanText.LoadModelName(plan.Load),
            Load = plan is null ? null : PlanText.Load(plan),
            BatchSize = plan?.Load.BatchSize,
            RequestUnits = run.ProvisionedRequestUnits,
            IsPartial = run.IsPartial,
            RequestUnitsReported = run.RequestUnitsReported,
            AverageLatencyMs = run.Latency?.MeanMs,
            P50LatencyMs = run.Latency?.P50Ms,
            P75LatencyMs = run.Latency?.P75Ms,
            P90LatencyMs = run.Latency?.P90Ms,
            P95LatencyMs = run.Latency?.P95Ms,
            P98LatencyMs = run.Latency?.P98Ms,
            P99LatencyMs = run.Latency?.P99Ms,
            P999LatencyMs = run.Latency?.P999Ms,
            MaxLatencyMs = run.Latency?.MaxMs,
            AverageThroughput = summary?.AverageThroughput,
            P99PerSecondThroughput = summary is null ? null : PerSecondFigures.Of(summary, summary.P99PerSecondThroughput),
            Top10PercentMeanThroughput = summary?.Top10PercentMeanThroughput,
            RequestUnitsPerInsert = summary?.RequestUnitsPerInsert,
            ThrottledPercent = summary?.ThrottledFraction * 100,
            EstimatedCostPerMonth = summary?.EstimatedCostPerMonth,
            ClientLimitedSeconds = summary is null ? null : (int?)RunComparison.ClientLimitedSeconds(summary),
            PerSecondLeftOut = summary?.PerSecondLeftOut ?? 0,
            WorstClientSecond = ClientSecondText.Describe(summary?.WorstClientSecond),
            Metadata = RunMetadata.FromStored(run.Run.MetadataJson).ToString(),
        };
    }

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
            yield return FormattableString.Invariant($"#{row.RunId} {row.Profile}{(row.IsPartial ? " (partial)" : "")}");
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
        yield return Number(row.ClientLimitedSeconds, 0);
        yield return Text(row.WorstClientSecond);
        if (!forMarkdown)
        {
            yield return row.IsPartial ? "yes" : "no";
            yield return row.Metadata;
        }
    }

    private static void Line(StringBuilder markdown, IEnumerable<string> cells) =>
        markdown.Append("| ").AppendJoin(" | ", cells).Append(" |\n");

    // A pipe would end the cell early; a line break would end the row.
    private static string EscapeMarkdown(string cell) =>
        cell.Replace("|", "\\|", StringComparison.Ordinal).Replace("\r", " ", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}

/// <summary>A figure column of the results page: its full heading (as in the Markdown and CSV), the group it is shown under
/// (null: none) and its heading within the group.</summary>
public sealed record FigureColumn(string Header, string? Group, string ShortHeader);
