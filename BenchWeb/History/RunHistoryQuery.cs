using System.Linq.Expressions;
using BenchWeb.Data;
using BenchWeb.Provenance;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.History;

/// <summary>The run history as one database query: filters, sort and paging run in SQL on the headline columns
/// (and their indexes), so the first page of 10,000 runs costs a count and one page of rows.</summary>
public static class RunHistoryQuery
{
    /// <summary>Dates outside these years are no filter: the day bounds would overflow the calendar.</summary>
    public const int FirstYear = 1900;

    /// <summary>The value of <typeparamref name="TEnum"/> named <paramref name="text"/> (any case, spaces around ignored), or
    /// null: only one name, never a number or a comma-separated list (which <see cref="Enum.TryParse{TEnum}(string, bool, out TEnum)"/>
    /// reads as the values combined: "Running,Completed" would be Cancelled).</summary>
    public static TEnum? Named<TEnum>(string? text) where TEnum : struct, Enum =>
        text?.Trim() is { Length: > 0 } name && Enum.GetNames<TEnum>().FirstOrDefault(n => n.Equals(name, StringComparison.OrdinalIgnoreCase)) is { } found
            ? Enum.Parse<TEnum>(found)
            : null;

    public const int LastYear = 9998;

    private const string LikeEscape = "\\";

    /// <param name="db">The database.</param>
    /// <param name="filter">Filters, sort and page.</param>
    /// <param name="timeZone">The zone the filter's days are in (the list shows times in it); the server's by default.</param>
    /// <param name="cancellationToken">Cancels the query.</param>
    public static async Task<RunHistoryPage> ExecuteAsync(BenchDbContext db, RunHistoryFilter filter, TimeZoneInfo? timeZone, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(filter);
        var pageSize = Math.Clamp(filter.PageSize, 1, RunHistoryFilter.MaxPageSize);
        var runs = Filter(db.Runs.AsNoTracking(), filter, timeZone ?? TimeZoneInfo.Local);

        var total = await runs.CountAsync(cancellationToken);
        var pageCount = total == 0 ? 1 : (total + pageSize - 1) / pageSize;
        var page = Math.Clamp(filter.Page, 1, pageCount);
        var rows = await PageOf(Sort(runs, filter.Sort, filter.Descending), page, pageSize)
            .Select(r => new RunHistoryRow
            {
                Id = r.Id,
                ProfileName = r.ProfileName,
                TargetKind = r.TargetKind,
                TargetDescription = r.TargetDescription,
                TargetIsModel = r.TargetIsModel,
                Status = r.Status,
                QueuedAt = r.QueuedAt,
                ElapsedSeconds = r.ElapsedSeconds,
                AverageThroughput = r.AverageThroughput,
                P99LatencyMs = r.P99LatencyMs,
                ThrottledFraction = r.ThrottledFraction,
                Verdict = r.Verdict,
                Tags = r.Tags,
                HasNotes = r.Notes != null && r.Notes != "",
                ImportedAt = r.ImportedAt,
                ImportedFrom = r.ImportedFrom,
                SweepId = r.SweepId,
                SweepStep = r.SweepStep,
                SweepName = r.SweepId == null ? null : db.Sweeps.Where(s => s.Id == r.SweepId).Select(s => s.Name).FirstOrDefault(),
                MetadataJson = r.MetadataJson,
            })
            .ToListAsync(cancellationToken);
        return new RunHistoryPage(rows, total, page, pageSize);
    }

    /// <summary>The same filters and sort, for the HTTP API: whole rows, and a page past the end is empty rather than the
    /// last one (a client paging on stops at an empty page).</summary>
    /// <param name="db">The database.</param>
    /// <param name="filter">Filters, sort and page; the page size is clamped to 1–<see cref="RunHistoryFilter.MaxPageSize"/>.</param>
    /// <param name="timeZone">The zone the filter's days are in; the server's by default.</param>
    /// <param name="cancellationToken">Cancels the query.</param>
    public static async Task<RunListPage> ListAsync(BenchDbContext db, RunHistoryFilter filter, TimeZoneInfo? timeZone, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(filter);
        var pageSize = Math.Clamp(filter.PageSize, 1, RunHistoryFilter.MaxPageSize);
        var runs = Filter(db.Runs.AsNoTracking(), filter, timeZone ?? TimeZoneInfo.Local);
        var total = await runs.CountAsync(cancellationToken);
        var rows = await PageOf(Sort(runs, filter.Sort, filter.Descending), Math.Max(filter.Page, 1), pageSize).ToListAsync(cancellationToken);
        return new RunListPage(rows, total);
    }

    // A page far past the end skips every row rather than overflowing.
    private static IQueryable<RunEntity> PageOf(IQueryable<RunEntity> runs, int page, int pageSize) =>
        runs.Skip((int)Math.Min((long)(page - 1) * pageSize, int.MaxValue)).Take(pageSize);

    private static IQueryable<RunEntity> Filter(IQueryable<RunEntity> runs, RunHistoryFilter filter, TimeZoneInfo timeZone)
    {
        if (!string.IsNullOrWhiteSpace(filter.Profile))
        {
            var pattern = Contains(filter.Profile);
#pragma warning disable CA1304, CA1311 // Translated to SQL's lower(): no culture applies.
            runs = runs.Where(r => EF.Functions.Like(r.ProfileName.ToLower(), pattern, LikeEscape));
#pragma warning restore CA1304, CA1311
        }

        if (filter.TargetKind is { } kind)
        {
            runs = runs.Where(r => r.TargetKind == kind);
        }

        if (filter.Sweep is { } sweep)
        {
            runs = runs.Where(r => r.SweepId == sweep);
        }

        if (filter.Status is { } status)
        {
            runs = runs.Where(r => r.Status == status);
        }

        // Times are stored as UTC instants; a day is the span from its midnight to the next in the list's zone.
        if (filter.From is { } from && from.Year is >= FirstYear and <= LastYear)
        {
            var start = StartOfDay(from, timeZone);
            runs = runs.Where(r => r.QueuedAt >= start);
        }

        if (filter.To is { } to && to.Year is >= FirstYear and <= LastYear)
        {
            var end = StartOfDay(to.AddDays(1), timeZone);
            runs = runs.Where(r => r.QueuedAt < end);
        }

        // Tags are stored ",a,b,": a whole tag is the text between two commas, so "gate" never matches "gateway".
        foreach (var tag in RunTags.Parse(filter.Tag))
        {
            var delimited = "," + tag + ",";
            runs = runs.Where(r => r.Tags != null && r.Tags.Contains(delimited));
        }

        if (!string.IsNullOrWhiteSpace(filter.Notes))
        {
            var pattern = Contains(filter.Notes);
#pragma warning disable CA1304, CA1311 // Translated to SQL's lower(): no culture applies.
            runs = runs.Where(r => r.Notes != null && EF.Functions.Like(r.Notes.ToLower(), pattern, LikeEscape));
#pragma warning restore CA1304, CA1311
        }

        // The stored object holds a pair in one form only (RunMetadata.StoredPair): the key and value match exactly.
        if (RunMetadata.TryParsePair(filter.Meta, out var pair) is null)
        {
            var stored = RunMetadata.StoredPair(pair.Key, pair.Value);
            runs = runs.Where(r => r.MetadataJson != null && r.MetadataJson.Contains(stored));
        }

        return runs;
    }

    // Runs without a figure (still running, failed before a second) come last in either direction; ties by id.
    private static IOrderedQueryable<RunEntity> Sort(IQueryable<RunEntity> runs, RunHistorySort sort, bool descending) => sort switch
    {
        // Names sort as people read them ("gateway" beside "Gateway"), not by character code.
#pragma warning disable CA1304, CA1311 // Translated to SQL's lower(): no culture applies.
        RunHistorySort.Profile => By(runs, r => r.ProfileName.ToLower(), descending),
#pragma warning restore CA1304, CA1311
        RunHistorySort.Target => By(runs, r => r.TargetKind, descending).ThenBy(r => r.TargetDescription).ThenByDescending(r => r.Id),
        RunHistorySort.Status => By(runs, r => r.Status, descending),
        RunHistorySort.Queued => By(runs, r => r.QueuedAt, descending),
        RunHistorySort.Duration => NullsLast(runs, r => r.ElapsedSeconds, descending),
        RunHistorySort.Throughput => NullsLast(runs, r => r.AverageThroughput, descending),
        RunHistorySort.P99 => NullsLast(runs, r => r.P99LatencyMs, descending),
        RunHistorySort.Throttled => NullsLast(runs, r => r.ThrottledFraction, descending),
        _ => descending ? runs.OrderByDescending(r => r.Id) : runs.OrderBy(r => r.Id),
    };

    private static IOrderedQueryable<RunEntity> By<TKey>(IQueryable<RunEntity> runs, Expression<Func<RunEntity, TKey>> key, bool descending) =>
        (descending ? runs.OrderByDescending(key) : runs.OrderBy(key)).ThenByDescending(r => r.Id);

    private static IOrderedQueryable<RunEntity> NullsLast(IQueryable<RunEntity> runs, Expression<Func<RunEntity, double?>> key, bool descending)
    {
        var isNull = Expression.Lambda<Func<RunEntity, bool>>(Expression.Equal(key.Body, Expression.Constant(null, typeof(double?))), key.Parameters);
        var ordered = runs.OrderBy(isNull);
        return (descending ? ordered.ThenByDescending(key) : ordered.ThenBy(key)).ThenByDescending(r => r.Id);
    }

    private static DateTimeOffset StartOfDay(DateOnly day, TimeZoneInfo timeZone)
    {
        var midnight = day.ToDateTime(TimeOnly.MinValue, DateTimeKind.Unspecified);
        // A midnight skipped by a clock change starts the day an hour later.
        while (timeZone.IsInvalidTime(midnight))
        {
            midnight = midnight.AddMinutes(30);
        }

        return new DateTimeOffset(midnight, timeZone.GetUtcOffset(midnight)).ToUniversalTime();
    }

    // Lower case on both sides: LIKE ignores case in SQLite but not in PostgreSQL (shared mode).
    private static string Contains(string text) =>
        "%" + text.Trim().ToLowerInvariant().Replace(LikeEscape, LikeEscape + LikeEscape, StringComparison.Ordinal)
            .Replace("%", LikeEscape + "%", StringComparison.Ordinal)
            .Replace("_", LikeEscape + "_", StringComparison.Ordinal) + "%";
}
