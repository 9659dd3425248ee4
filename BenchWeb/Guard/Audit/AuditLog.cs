using System.Globalization;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Guard;
using BenchWeb.Guard.Security;
using CsvHelper;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Guard.Audit;

/// <summary>The audit log: who did what, from where, when, and against which endpoint. The services that act append
/// to it, in the same database transaction as the change where they can, so a page and the API are recorded alike.
/// The app only appends: no page or endpoint edits or deletes an entry. Entries never hold a secret's value.</summary>
public sealed class AuditLog(IDbContextFactory<BenchDbContext> databases, TimeProvider time)
{
    public const int MaxSubjectLength = 400;

    public const int MaxDetailsLength = 4_000;

    public static readonly IReadOnlyList<string> CsvColumns =
        ["id", "at_utc", "user_id", "user_name", "role", "via", "remote_ip", "action", "subject", "details", "endpoint"];

    private const string LikeEscape = "\\";

    /// <summary>Adds an entry to <paramref name="db"/>; it is written with the caller's next save, with the change it records.</summary>
    public AuditEntryEntity Append(BenchDbContext db, Actor actor, string action, string subject, string? details = null, string? endpoint = null)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(actor);
        var entry = new AuditEntryEntity
        {
            At = time.GetUtcNow(),
            UserId = Truncate(actor.UserId, 300),
            UserName = Truncate(actor.Name, 200),
            Role = Truncate(actor.Role, 10),
            Via = Truncate(actor.Via, 200),
            RemoteIp = actor.RemoteIp is { } ip ? Truncate(ip, 64) : null,
            Action = action,
            // A refused launch or save quotes what was refused: a key pasted where it does not belong is never kept here.
            Subject = Truncate(CredentialRedaction.Redact(subject, []), MaxSubjectLength),
            Details = details is null ? null : Truncate(CredentialRedaction.Redact(details, []), MaxDetailsLength),
            Endpoint = endpoint is null ? null : Truncate(endpoint, 300),
        };
        db.AuditEntries.Add(entry);
        return entry;
    }

    /// <summary>Writes an entry on its own, for actions whose change was saved elsewhere.</summary>
    public async Task RecordAsync(Actor actor, string action, string subject, string? details, string? endpoint, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        Append(db, actor, action, subject, details, endpoint);
        await db.SaveChangesAsync(cancellationToken);
    }

    /// <summary>A page of entries matching the filter, newest first.</summary>
    public async Task<AuditPage> QueryAsync(AuditFilter filter, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(filter);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var entries = Filter(db.AuditEntries.AsNoTracking(), filter);
        var pageSize = Math.Clamp(filter.PageSize, 1, AuditFilter.MaxPageSize);
        var total = await entries.CountAsync(cancellationToken);
        var pageCount = total == 0 ? 1 : (total + pageSize - 1) / pageSize;
        var page = Math.Clamp(filter.Page, 1, pageCount);
        var rows = await entries.OrderByDescending(e => e.Id).Skip((page - 1) * pageSize).Take(pageSize).ToListAsync(cancellationToken);
        return new AuditPage(rows, page, pageSize, total);
    }

    /// <summary>Every entry matching the filter (paging ignored), newest first, as CSV. Text that a spreadsheet would
    /// take for a formula is escaped, and so are control and bidirectional characters (<see cref="PlainText.Escape"/>),
    /// which names typed before they were refused, or given by a sign-in provider, may hold: the file stays text.</summary>
    public async Task WriteCsvAsync(AuditFilter filter, TextWriter writer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(filter);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        await using var csv = new CsvWriter(writer, CsvFormat.Configuration, leaveOpen: true);
        foreach (var column in CsvColumns)
        {
            csv.WriteField(column);
        }

        await csv.NextRecordAsync();
        await foreach (var entry in Filter(db.AuditEntries.AsNoTracking(), filter).OrderByDescending(e => e.Id).AsAsyncEnumerable().WithCancellation(cancellationToken))
        {
            csv.WriteField(entry.Id);
            csv.WriteField(entry.At.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture));
            csv.WriteField(Printable(entry.UserId));
            csv.WriteField(Printable(entry.UserName));
            csv.WriteField(Printable(entry.Role));
            csv.WriteField(Printable(entry.Via));
            csv.WriteField(Printable(entry.RemoteIp));
            csv.WriteField(Printable(entry.Action));
            csv.WriteField(Printable(entry.Subject));
            csv.WriteField(Printable(EndpointPolicy.WithoutUserInfoInText(entry.Details)));
            csv.WriteField(Printable(entry.Endpoint));
            await csv.NextRecordAsync();
        }

        await csv.FlushAsync();
    }

    /// <summary>The endpoint host a plan writes to, as the log records it: the one its settings name (a Cosmos DB account's),
    /// else the one of a secret stored for it (a connection string's, read when it was stored; one named from the environment
    /// is not read for this: null); none for the simulator and the no-op target.</summary>
    public static string? EndpointOf(RunPlan plan, IReadOnlyDictionary<string, Uri>? secretEndpoints)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var endpoint = (plan.Target.Kind.Module as IServiceEndpoints)?.PlannedEndpoint(plan.Target)?.Endpoint ?? secretEndpoints?.Values.FirstOrDefault();
        return endpoint is null ? null : EndpointAllowList.HostOf(endpoint);
    }

    private static IQueryable<AuditEntryEntity> Filter(IQueryable<AuditEntryEntity> entries, AuditFilter filter)
    {
        if (!string.IsNullOrWhiteSpace(filter.Who))
        {
            // Lower case on both sides: LIKE ignores case in SQLite but not in PostgreSQL (shared mode).
            var pattern = "%" + filter.Who.Trim().ToLowerInvariant().Replace(LikeEscape, LikeEscape + LikeEscape, StringComparison.Ordinal)
                .Replace("%", LikeEscape + "%", StringComparison.Ordinal).Replace("_", LikeEscape + "_", StringComparison.Ordinal) + "%";
#pragma warning disable CA1304, CA1311 // Translated to SQL's lower(): no culture applies.
            entries = entries.Where(e => EF.Functions.Like(e.UserName.ToLower(), pattern, LikeEscape) || EF.Functions.Like(e.UserId.ToLower(), pattern, LikeEscape));
#pragma warning restore CA1304, CA1311
        }

        if (!string.IsNullOrWhiteSpace(filter.Action))
        {
            var action = filter.Action.Trim();
            entries = action.EndsWith('.')
                ? entries.Where(e => e.Action.StartsWith(action))
                : entries.Where(e => e.Action == action);
        }

        // Days are UTC days: the log shows UTC times, the same for every reader wherever the server is.
        if (filter.From is { } from)
        {
            var start = new DateTimeOffset(from.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero);
            entries = entries.Where(e => e.At >= start);
        }

        if (filter.To is { Year: < 9999 } to)
        {
            var end = new DateTimeOffset(to.AddDays(1).ToDateTime(TimeOnly.MinValue), TimeSpan.Zero);
            entries = entries.Where(e => e.At < end);
        }

        return entries;
    }

    private static string? Printable(string? text) => text is null ? null : PlainText.Escape(text);

    private static string Truncate(string value, int length) => value.Length <= length ? value : value[..(length - 1)] + "…";
}
