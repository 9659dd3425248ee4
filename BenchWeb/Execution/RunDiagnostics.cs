using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Execution;

/// <summary>A run's slow requests as the page, the API and the export read them (an imported document's are checked by
/// <c>ImportedSlowRequests</c>).</summary>
public static class RunDiagnostics
{
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
}
