using System.Globalization;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Runs;

/// <summary>A run's slow requests as the page, the API and the export read them, and the rules an imported document's
/// entries must keep.</summary>
public static class RunDiagnostics
{
    /// <summary>The most entries a document may bring: every shard's bound.</summary>
    public const int MaxImported = DiagnosticsOptions.MaxEntries * BenchEngine.Workloads.WorkloadShard.MaxCount;

    /// <summary>The run's slow requests (of second <paramref name="second"/> only, when given), in the order of their seconds,
    /// slowest first within a second.</summary>
    public static async Task<List<SlowRequest>> OfRunAsync(BenchDbContext db, long runId, int? second, CancellationToken cancellationToken)
    {
        return (await EntriesOfRunAsync(db, runId, second, cancellationToken)).ConvertAll(e => e.ToSlowRequest());
    }

    /// <summary>The same, as saved (with the shard and number a later change names them by).</summary>
    public static async Task<List<RunDiagnosticEntity>> EntriesOfRunAsync(BenchDbContext db, long runId, int? second, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var query = db.RunDiagnostics.AsNoTracking().Where(d => d.RunId == runId);
        if (second is { } only)
        {
            query = query.Where(d => d.Second == only);
        }

        var entries = await query.ToListAsync(cancellationToken);
        entries.Sort(InShownOrder);
        return entries;
    }

    /// <summary>The order entries are shown in: by second, slowest first within a second.</summary>
    public static int InShownOrder(RunDiagnosticEntity a, RunDiagnosticEntity b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        var bySecond = a.Second.CompareTo(b.Second);
        if (bySecond != 0)
        {
            return bySecond;
        }

        var byLatency = b.LatencyMs.CompareTo(a.LatencyMs);
        return byLatency != 0 ? byLatency : a.Id.CompareTo(b.Id);
    }

    /// <summary>A run's kept entries after a shard's change (<see cref="Live.SlowRequestsSaved"/>): those it let go out, those
    /// it kept in (once, however often the change arrives), in the shown order.</summary>
    public static List<RunDiagnosticEntity> Apply(IEnumerable<RunDiagnosticEntity> entries, int shard, IReadOnlyCollection<RunDiagnosticEntity> added, IReadOnlyCollection<int> removed)
    {
        ArgumentNullException.ThrowIfNull(entries);
        ArgumentNullException.ThrowIfNull(added);
        ArgumentNullException.ThrowIfNull(removed);
        var replaced = added.Select(a => a.Number).Concat(removed).ToHashSet();
        List<RunDiagnosticEntity> after = [.. entries.Where(e => e.Shard != shard || !replaced.Contains(e.Number)), .. added];
        after.Sort(InShownOrder);
        return after;
    }

    /// <summary>Adds to <paramref name="errors"/> what is wrong with an imported document's slow requests, each naming its
    /// entry: bounded texts in plain text, a second of the run, a latency, status and attempt count in range.</summary>
    public static void Check(IReadOnlyList<SlowRequest>? requests, int seconds, List<FieldError> errors)
    {
        ArgumentNullException.ThrowIfNull(errors);
        if (requests is null)
        {
            return;
        }

        const string field = nameof(RunExport.SlowRequests);
        if (requests.Count > MaxImported)
        {
            errors.Add(new(field, string.Create(CultureInfo.InvariantCulture, $"At most {MaxImported:N0} entries; this document has {requests.Count:N0}.")));
            return;
        }

        var found = 0;
        for (var i = 0; i < requests.Count && found < RunExportRanges.MaxErrors; i++)
        {
            var at = $"{field}[{i}]";
            var problem = requests[i] switch
            {
                null => "An entry is null.",
                { Second: var s } when s < 0 || s >= Math.Max(seconds, 1) => $"Second {s} is not one of the run's {seconds} seconds.",
                { LatencyMs: var ms } when !(ms >= 0 && ms <= DiagnosticsOptions.MaxThresholdMs * 24) => "The latency must be a number of milliseconds from 0 to a day.",
                { StatusCode: < 0 or > 999 } => "The status must be from 0 to 999.",
                { Attempts: < 1 or > 101 } => "The attempts must be from 1 to 101.",
                { Outcome: var outcome } when !Enum.IsDefined(outcome) => "The outcome is not Ok, Throttled or Error.",
                { Text.Length: > DiagnosticsOptions.MaxTextLength } => $"The text is longer than {DiagnosticsOptions.MaxTextLength:N0} characters.",
                { Summary.Length: > SlowRequest.MaxSummaryLength } => $"The summary is longer than {SlowRequest.MaxSummaryLength} characters.",
                { Target.Length: > SlowRequest.MaxTargetLength } => $"The target is longer than {SlowRequest.MaxTargetLength} characters.",
                var entry => PlainText.Check(entry.Summary) ?? PlainText.Check(entry.Target) ?? PlainText.Check(entry.Text, allowLineBreaks: true),
            };
            if (problem is not null)
            {
                errors.Add(new(at, problem));
                found++;
            }
        }
    }
}
