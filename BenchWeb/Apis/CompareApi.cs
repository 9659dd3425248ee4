using System.Text;
using BenchWeb.Compare;
using BenchWeb.Data;
using BenchWeb.Guard.Security;
using BenchWeb.History;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Apis;

/// <summary>Downloads behind the comparison and results pages: <c>/compare.csv?runs=…</c> (every second of
/// every run) and <c>/results.csv?runs=…</c> (the results table). Bad or unknown ids give problem details.</summary>
public static class CompareApi
{
    public const string CompareCsvPath = "/compare.csv";

    public const string ResultsCsvPath = "/results.csv";

    /// <summary>Runs a comparison takes.</summary>
    public const int MinimumCompared = 2;

    public const int MaximumCompared = 5;

    /// <summary>Runs a results table takes at most (a table, not an export of the database).</summary>
    public const int MaximumInResults = 100;

    private const string CsvContentType = "text/csv; charset=utf-8";

    public static IEndpointRouteBuilder MapCompareApi(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);

        endpoints.MapGet(CompareCsvPath, async Task<Results<PushStreamHttpResult, ProblemHttpResult>> (string? runs, RunReader reader, CancellationToken cancellationToken) =>
        {
            var (comparison, problem) = await LoadAsync(reader, runs, MinimumCompared, MaximumCompared, includeSeconds: true, cancellationToken);
            if (comparison is null)
            {
                return problem!;
            }

            return TypedResults.Stream(async body =>
            {
                await using var writer = new StreamWriter(body, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
                await comparison.WriteSecondsCsvAsync(writer, cancellationToken);
            }, CsvContentType, $"compare-{string.Join('-', comparison.Runs.Select(r => r.Id))}.csv");
        })
        .RequireAuthorization(Policies.Viewer)
        .WithName("GetComparisonCsv")
        .WithSummary("Every second of 2–5 runs as CSV: run, profile, second, elapsed, inserts/s, throttled/s, RU/s, p50, p99.");

        endpoints.MapGet(ResultsCsvPath, async Task<Results<FileContentHttpResult, ProblemHttpResult>> (string? runs, RunReader reader, CancellationToken cancellationToken) =>
        {
            var (comparison, problem) = await LoadAsync(reader, runs, 1, MaximumInResults, includeSeconds: false, cancellationToken);
            if (comparison is null)
            {
                return problem!;
            }

            var csv = new ResultsTableBuilder(comparison.Runs).ToCsv();
            return TypedResults.File(Encoding.UTF8.GetBytes(csv), CsvContentType, $"results-{string.Join('-', comparison.Runs.Select(r => r.Id))}.csv");
        })
        .RequireAuthorization(Policies.Viewer)
        .WithName("GetResultsCsv")
        .WithSummary("The results table of one or more runs as CSV.");

        return endpoints;
    }

    private static async Task<(RunComparison? Comparison, ProblemHttpResult? Problem)> LoadAsync(
        RunReader reader, string? runs, int minimum, int maximum, bool includeSeconds, CancellationToken cancellationToken)
    {
        var selection = RunSelection.Parse(runs, minimum, maximum);
        if (!selection.IsValid)
        {
            return (null, Problem(StatusCodes.Status400BadRequest, "The run selection is not valid.", selection.Error!));
        }

        var comparison = await reader.CompareAsync(selection.Ids, includeSeconds, cancellationToken);
        return comparison.MissingMessage is { } missing
            ? (null, Problem(StatusCodes.Status404NotFound, "A run does not exist.", missing))
            : (comparison, null);
    }

    private static ProblemHttpResult Problem(int status, string title, string detail) =>
        TypedResults.Problem(statusCode: status, title: title, detail: detail,
            extensions: new Dictionary<string, object?> { ["errors"] = new Dictionary<string, string[]> { ["runs"] = [detail] } });
}
