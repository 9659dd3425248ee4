using System.Globalization;
using System.Text;
using BenchEngine.Running;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Profiles;
using BenchWeb.Sweeps;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary><c>/api/sweeps</c>: start a sweep (one plan run once per value of a setting, each step an ordinary run), list
/// and read sweeps with their steps and knee, cancel one, export its steps as CSV or Markdown.</summary>
public static class SweepsApi
{
    public const string Path = "/api/sweeps";

    public const int MaxListed = SweepReader.MaxListed;

    public static RouteGroupBuilder MapSweepsApi(this IEndpointRouteBuilder endpoints)
    {
        // Reading needs a Viewer, starting and cancelling a Runner.
        var group = endpoints.MapGroup(Path).WithTags("Sweeps").RequireAuthorization(Policies.Viewer);

        group.MapGet("/", ListAsync)
            .WithName("ListSweeps")
            .WithSummary("List sweeps, newest first")
            .WithDescription($"The latest {MaxListed} sweeps with their status and knee.");

        group.MapGet("/{id:long}", GetAsync)
            .WithName("GetSweep")
            .WithSummary("Read one sweep")
            .WithDescription("Status, options, each step that ran (its value, its run's id — an ordinary run, GET /api/runs/{id} — and its figures) and each series' knee: "
                + "the recommended step, what limited the series (P99, Throttling, ClientCpu, ProvisionedThroughput or None) and why, with the headroom to the provisioned RU/s and its monthly cost.");

        group.MapPost("/", StartAsync)
            .RequireAuthorization(Policies.Runner)
            .Accepts<StartSweepRequest>("application/json")
            .ProducesProblem(StatusCodes.Status409Conflict)
            .WithName("StartSweep")
            .WithSummary("Start a sweep")
            .WithDescription("Queues a sweep of a saved profile ({\"profileId\": 3, \"sweep\": {…}}) or of an inline plan ({\"plan\": {…}, \"sweep\": {…}}). "
                + "sweep: setting (e.g. \"Load.Concurrency\"), values (e.g. [\"8\", \"16\", \"32\"]), optional seriesSetting and seriesValues, earlyStop, knee. "
                + "Every step is checked as a run's launch is; a problem comes back as a validation problem keyed by field path (\"Sweep.Values[2]\"). Answers 202 with the sweep's address; "
                + "409 while an administrator has paused launching.");

        group.MapPost("/{id:long}/cancel", CancelAsync)
            .RequireAuthorization(Policies.Runner)
            .WithName("CancelSweep")
            .WithSummary("Cancel a sweep")
            .WithDescription("The step running stops (keeping what it measured) and no further step starts. 409 when the sweep has already ended.");

        group.MapGet("/{id:long}/export.csv", ExportCsvAsync)
            .Produces(StatusCodes.Status200OK, contentType: "text/csv")
            .WithName("ExportSweepCsv")
            .WithSummary("Export a sweep's steps as CSV")
            .WithDescription("One row per step: " + string.Join(", ", SweepTable.Columns) + ". Numbers in the invariant culture.");

        group.MapGet("/{id:long}/export.md", ExportMarkdownAsync)
            .Produces(StatusCodes.Status200OK, contentType: "text/markdown")
            .WithName("ExportSweepMarkdown")
            .WithSummary("Export a sweep's steps as a Markdown table, with each series' knee");

        return group;
    }

    internal static async Task<Ok<IReadOnlyList<SweepDetails>>> ListAsync(SweepReader reader, CancellationToken cancellationToken) =>
        TypedResults.Ok<IReadOnlyList<SweepDetails>>([.. (await reader.ListAsync(cancellationToken)).Select(s => SweepDetails.From(s.Sweep, [.. s.Steps]))]);

    internal static async Task<Results<Ok<SweepDetails>, ProblemHttpResult>> GetAsync(long id, SweepReader reader, CancellationToken cancellationToken) =>
        await FindAsync(reader, id, cancellationToken) is { } details ? TypedResults.Ok(details) : NoSuchSweep(id);

    internal static async Task<Results<Accepted<SweepDetails>, ValidationProblem, ProblemHttpResult>> StartAsync(
        HttpRequest request, SweepService sweeps, SweepReader reader, ProfileReader profiles, CancellationToken cancellationToken)
    {
        var (body, problem) = await ApiJson.ReadAsync<StartSweepRequest>(request, "the sweep (a plan or a profile's id, and the sweep's settings)", cancellationToken);
        if (problem is not null)
        {
            return problem;
        }

        var (plan, profile, invalid) = await RunsApi.PlanToLaunchAsync(body!.ProfileId, body.Plan, profiles, cancellationToken);
        if (invalid is not null)
        {
            return invalid;
        }

        if (body.Sweep is not { } sweep)
        {
            return ApiJson.Invalid([new FieldError("Sweep", "Give the sweep: its setting and values.")]);
        }

        // As the form offers them: a setting the profile's runs do not read would make every step the same run. (The built-in
        // presets may: the G study's connection modes on the simulator show that the model has no client cost.)
        if (SweepAxes.Errors(sweep, plan!) is { Count: > 0 } inapplicable)
        {
            return ApiJson.Invalid(inapplicable);
        }

        try
        {
            var sweepId = await sweeps.StartAsync(plan!, sweep, profile?.Id, body.Metadata, request.HttpContext.Actor(), cancellationToken);
            return TypedResults.Accepted($"{Path}/{sweepId}", await FindAsync(reader, sweepId, cancellationToken));
        }
        catch (RunPlanValidationException ex)
        {
            return ApiJson.Invalid(ex.Errors);
        }
        catch (LaunchesPausedException ex)
        {
            return ApiJson.Paused(ex.State);
        }
    }

    internal static async Task<Results<Accepted<SweepDetails>, ProblemHttpResult>> CancelAsync(
        long id, HttpContext http, SweepService sweeps, SweepReader reader, CancellationToken cancellationToken)
    {
        if (await FindAsync(reader, id, cancellationToken) is not { } before)
        {
            return NoSuchSweep(id);
        }

        if (!await sweeps.CancelAsync(id, http.Actor(), cancellationToken))
        {
            return TypedResults.Problem(
                statusCode: StatusCodes.Status409Conflict,
                title: "The sweep has already ended.",
                detail: $"Sweep {id} ended as {before.Status}; there is nothing to cancel.");
        }

        return TypedResults.Accepted($"{Path}/{id}", await FindAsync(reader, id, cancellationToken));
    }

    internal static async Task<Results<FileContentHttpResult, ProblemHttpResult>> ExportCsvAsync(long id, SweepReader reader, CancellationToken cancellationToken)
    {
        if (await FindAsync(reader, id, cancellationToken) is not { } sweep)
        {
            return NoSuchSweep(id);
        }

        await using var text = new StringWriter(CultureInfo.InvariantCulture);
        await SweepTable.WriteCsvAsync(sweep.Steps, text, cancellationToken);
        return TypedResults.File(Encoding.UTF8.GetBytes(text.ToString()), "text/csv", $"sweep-{id}.csv");
    }

    internal static async Task<Results<FileContentHttpResult, ProblemHttpResult>> ExportMarkdownAsync(long id, SweepReader reader, CancellationToken cancellationToken)
    {
        if (await FindAsync(reader, id, cancellationToken) is not { } sweep)
        {
            return NoSuchSweep(id);
        }

        var text = new StringBuilder();
        text.Append("# Sweep ").Append(id).Append(": ").AppendLine(sweep.Name).AppendLine();
        text.AppendLine(SweepTable.ToMarkdown(sweep.Steps));
        foreach (var knee in sweep.Knees)
        {
            text.Append("- ").Append(knee.Series is null ? "" : $"{knee.Series}: ").AppendLine(knee.Reason);
        }

        return TypedResults.File(Encoding.UTF8.GetBytes(text.ToString()), "text/markdown", $"sweep-{id}.md");
    }

    private static async Task<SweepDetails?> FindAsync(SweepReader reader, long id, CancellationToken cancellationToken) =>
        await reader.FindAsync(id, cancellationToken) is { } found ? SweepDetails.From(found.Sweep, [.. found.Steps]) : null;

    private static ProblemHttpResult NoSuchSweep(long id) => ApiJson.NotFound($"Sweep {id} does not exist.");
}
