using System.ComponentModel;
using System.Globalization;
using System.Text;
using BenchEngine.Running;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary><c>/api/audit</c>, for administrators: the audit log, newest first, filtered and paged, or as CSV. Read
/// only: nothing in the app edits or deletes an entry.</summary>
public static class AuditApi
{
    public const string Path = "/api/audit";

    public const string CsvPath = Path + "/export.csv";

    public static RouteGroupBuilder MapAuditApi(this IEndpointRouteBuilder endpoints)
    {
        var group = endpoints.MapGroup(Path).WithTags("Audit").RequireAuthorization(Policies.Admin);

        group.MapGet("/", ListAsync)
            .WithName("ListAuditEntries")
            .WithSummary("Read the audit log")
            .WithDescription("Who did what, from where, when and against which endpoint: launches, cancels, profile and secret changes (never a secret's value), "
                + "settings (old → new), the kill switch, users and tokens, imports. Newest first; who (part of a name or id), action (e.g. run.launched, or run. for a family), "
                + $"from and to (UTC days, yyyy-MM-dd) filter; page from 1, pageSize 1–{AuditFilter.MaxPageSize} (default {AuditFilter.DefaultPageSize}).");

        group.MapGet("/export.csv", ExportCsvAsync)
            .Produces(StatusCodes.Status200OK, contentType: "text/csv")
            .WithName("ExportAuditCsv")
            .WithSummary("Export the audit log as CSV")
            .WithDescription("Every entry matching the same filters, newest first: " + string.Join(", ", AuditLog.CsvColumns) + ". Times in UTC.");

        return group;
    }

    internal static async Task<Results<Ok<AuditPageResponse>, ValidationProblem>> ListAsync(
        [Description("Part of the user's name or id.")] string? who,
        [Description("An action such as run.launched, or a family such as run.")] string? action,
        [Description("First UTC day, yyyy-MM-dd.")] string? from,
        [Description("Last UTC day, yyyy-MM-dd.")] string? to,
        [Description("Page number, from 1.")] string? page,
        [Description("Entries per page.")] string? pageSize,
        AuditLog audit, CancellationToken cancellationToken)
    {
        var errors = new List<FieldError>();
        var filter = Filter(who, action, from, to, errors) with
        {
            Page = QueryNumbers.ParseInt(page, 1, "page", 1, int.MaxValue, errors),
            PageSize = QueryNumbers.ParseInt(pageSize, AuditFilter.DefaultPageSize, "pageSize", 1, AuditFilter.MaxPageSize, errors),
        };
        if (errors.Count > 0)
        {
            return ApiJson.Invalid(errors);
        }

        var result = await audit.QueryAsync(filter, cancellationToken);
        return TypedResults.Ok(new AuditPageResponse([.. result.Entries.Select(AuditEntryResponse.From)], result.Page, result.PageSize, result.TotalCount));
    }

    internal static async Task<Results<FileContentHttpResult, ValidationProblem>> ExportCsvAsync(
        string? who, string? action, string? from, string? to, AuditLog audit, TimeProvider time, CancellationToken cancellationToken)
    {
        var errors = new List<FieldError>();
        var filter = Filter(who, action, from, to, errors);
        if (errors.Count > 0)
        {
            return ApiJson.Invalid(errors);
        }

        await using var text = new StringWriter(CultureInfo.InvariantCulture);
        await audit.WriteCsvAsync(filter, text, cancellationToken);
        return TypedResults.File(Encoding.UTF8.GetBytes(text.ToString()), "text/csv", $"audit-{time.GetUtcNow().UtcDateTime:yyyyMMdd-HHmmss}.csv");
    }

    /// <summary>The filters of the query string, each bad one named in <paramref name="errors"/>.</summary>
    public static AuditFilter Filter(string? who, string? action, string? from, string? to, List<FieldError> errors)
    {
        ArgumentNullException.ThrowIfNull(errors);
        if (!string.IsNullOrWhiteSpace(action) && !action.Trim().EndsWith('.') && !AuditActions.All.Contains(action.Trim(), StringComparer.Ordinal))
        {
            errors.Add(new("action", $"'{action}' is not an action: use one of {string.Join(", ", AuditActions.All)}, or a family such as run."));
        }

        var filter = new AuditFilter
        {
            Who = string.IsNullOrWhiteSpace(who) ? null : who.Trim(),
            Action = string.IsNullOrWhiteSpace(action) ? null : action.Trim(),
            From = ParseDay(from, "from", errors),
            To = ParseDay(to, "to", errors),
        };
        if (filter is { From: { } first, To: { } last } && first > last)
        {
            errors.Add(new("to", $"{last:yyyy-MM-dd} is before from ({first:yyyy-MM-dd}): the range would hold nothing."));
        }

        return filter;
    }

    private static DateOnly? ParseDay(string? text, string field, List<FieldError> errors)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return null;
        }

        if (DateOnly.TryParseExact(text.Trim(), "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var day))
        {
            return day;
        }

        errors.Add(new(field, $"'{text}' is not a day: use yyyy-MM-dd."));
        return null;
    }
}
