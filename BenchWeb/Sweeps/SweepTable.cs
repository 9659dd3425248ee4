using System.Globalization;
using System.Text;
using BenchWeb.Guard;
using CsvHelper;

namespace BenchWeb.Sweeps;

/// <summary>A sweep's steps as a table, in CSV and in Markdown, with the columns of the results table: value, status,
/// average throughput (documents ÷ elapsed, as the run's page), p50, p99, throttled %, the RU/s on the average's basis (RU ÷
/// elapsed), client CPU and the recommended step's marker; then what the knee judged (the steady window's throughput, RU/s
/// and p99, over the same seconds), the client-limited seconds and verdict, whether the row is a re-run, its run and the
/// knee's note in words.</summary>
public static class SweepTable
{
    public static readonly IReadOnlyList<string> Columns =
        ["Step", "Series", "Value", "Status", "Average throughput (docs/s)", "P50 (ms)", "P99 (ms)", "Throttled (%)", "Average RU/s", "Client CPU (%)", "Recommended",
            "Steady throughput (docs/s)", "Steady RU/s", "Steady p99 (ms)", "Client-limited seconds", "Client-limited", "Re-run", "Run", "Note"];

    public static async Task WriteCsvAsync(IReadOnlyList<SweepStepRow> steps, TextWriter writer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(steps);
        await using var csv = new CsvWriter(writer, CsvFormat.Configuration, leaveOpen: true);
        foreach (var column in Columns)
        {
            csv.WriteField(column);
        }

        await csv.NextRecordAsync();
        foreach (var step in steps)
        {
            cancellationToken.ThrowIfCancellationRequested();
            csv.WriteField(step.Index + 1);
            csv.WriteField(step.Series);
            csv.WriteField(step.Value);
            csv.WriteField(step.Status.ToString());
            csv.WriteField(step.Throughput);
            csv.WriteField(step.P50Ms);
            csv.WriteField(step.P99Ms);
            csv.WriteField(step.ThrottledPercent);
            csv.WriteField(step.RequestUnitsPerSecond);
            csv.WriteField(step.MaxClientCpuPercent);
            csv.WriteField(step.Recommended ? "yes" : "");
            csv.WriteField(step.SteadyThroughput);
            csv.WriteField(step.SteadyRequestUnitsPerSecond);
            csv.WriteField(step.SteadyP99Ms);
            csv.WriteField(step.ClientLimitedSeconds);
            csv.WriteField(step.ClientLimited ? "yes" : "");
            csv.WriteField(step.IsReRun ? "yes" : "");
            csv.WriteField(step.RunId);
            csv.WriteField(step.Note);
            await csv.NextRecordAsync();
        }
    }

    /// <summary>A Markdown table; empty cells for figures not measured.</summary>
    public static string ToMarkdown(IReadOnlyList<SweepStepRow> steps)
    {
        ArgumentNullException.ThrowIfNull(steps);
        var text = new StringBuilder();
        text.Append("| ").AppendJoin(" | ", Columns).AppendLine(" |");
        text.Append('|').AppendJoin("", Columns.Select(c => c is "Step" or "Series" or "Value" or "Status" or "Recommended" or "Client-limited" or "Re-run" or "Note" ? " --- |" : " ---: |")).AppendLine();
        foreach (var step in steps)
        {
            string[] cells =
            [
                (step.Index + 1).ToString(CultureInfo.InvariantCulture),
                Escape(step.Series ?? ""),
                Escape(step.Value),
                step.Status.ToString(),
                Format(step.Throughput, "N0"),
                Format(step.P50Ms, "N1"),
                Format(step.P99Ms, "N1"),
                Format(step.ThrottledPercent, "0.##"),
                Format(step.RequestUnitsPerSecond, "N0"),
                Format(step.MaxClientCpuPercent, "0"),
                step.Recommended ? "**◀ recommended**" : "",
                Format(step.SteadyThroughput, "N0"),
                Format(step.SteadyRequestUnitsPerSecond, "N0"),
                Format(step.SteadyP99Ms, "N1"),
                step.ClientLimitedSeconds.ToString(CultureInfo.InvariantCulture),
                step.ClientLimited ? "client-limited" : "",
                step.IsReRun ? "re-run" : "",
                step.RunId == 0 ? "" : $"#{step.RunId.ToString(CultureInfo.InvariantCulture)}",
                Escape(step.Note),
            ];
            text.Append("| ").AppendJoin(" | ", cells).AppendLine(" |");
        }

        return text.ToString();
    }

    private static string Format(double? value, string format) => value?.ToString(format, CultureInfo.InvariantCulture) ?? "";

    private static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);
}
