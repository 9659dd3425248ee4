using System.ComponentModel;
using System.Globalization;
using System.Text;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.History;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Provenance;
using BenchWeb.Transfer;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary><c>/api/runs</c>: list and read runs, start and cancel them, export a run as JSON or CSV and import
/// another installation's export. Every error is a problem document naming the offending field.</summary>
public static class RunsApi
{
    public const string Path = "/api/runs";

    public const int DefaultPageSize = 20;

    public const int MaxPageSize = 200;

    public static RouteGroupBuilder MapRunsApi(this IEndpointRouteBuilder endpoints)
    {
        // Reading needs a Viewer, starting, cancelling and importing a Runner.
        var group = endpoints.MapGroup(Path).WithTags("Runs").RequireAuthorization(Policies.Viewer);

        group.MapGet("/", ListAsync)
            .WithName("ListRuns")
            .WithSummary("List runs, newest first")
            .WithDescription($"A page of runs with their headline figures and the total count. page starts at 1; pageSize is 1–{MaxPageSize} (default {DefaultPageSize}); "
                + "status filters by Queued, Running, Completed, Stopped, Cancelled, Failed or Interrupted; "
                + "meta=key=value keeps the runs whose metadata has exactly that pair (e.g. meta=commit=1a2b3c4); "
                + "sweep=12 keeps the steps of sweep 12 (re-runs included), each with its sweepId and sweepStep.");

        group.MapGet("/{id:long}", GetAsync)
            .WithName("GetRun")
            .WithSummary("Read one run")
            .WithDescription("Status, times, target, summary, verdict with each threshold check, failure reason, client environment and the plan as launched. "
                + "The summary accounts for every request (totalOffered = ok + given up + errors + abandoned + dropped + not started, accountsBalance), "
                + "names the seconds in which the client, not the service, was the limit (clientLimitedSpans, each with its reason in words) and the client's worst second "
                + "(worstClientSecond). Poll it to follow a run until its status is no longer Queued or Running.");

        group.MapPost("/", StartAsync)
            .RequireAuthorization(Policies.Runner)
            .Accepts<StartRunRequest>("application/json")
            .ProducesProblem(StatusCodes.Status409Conflict)
            .WithName("StartRun")
            .WithSummary("Start a run")
            .WithDescription("Queues a run of a saved profile ({\"profileId\": 3}) or of a plan given inline ({\"plan\": {…}}), optionally with where it comes from "
                + "({\"metadata\": {\"commit\": \"1a2b3c4\", \"branch\": \"main\", \"build\": \"812\", \"pipeline\": \"https://…\"}}: at most 20 pairs, keys of 1–50 characters, "
                + "values of at most 200, no control characters; each problem named by its key, e.g. \"Metadata.commit\"). Answers 202 with the run's address; "
                + "invalid plan settings, and settings over the installation's limits or off its endpoint allow-list, come back as a validation problem keyed by field path, "
                + "e.g. \"Load.Concurrency\". 409 while an administrator has paused launching (the problem's detail says who, since when and why).");

        group.MapPost("/{id:long}/cancel", CancelAsync)
            .RequireAuthorization(Policies.Runner)
            .WithName("CancelRun")
            .WithSummary("Cancel a run")
            .WithDescription("A queued run is cancelled at once; a running one stops its load within about a second and keeps every second measured. 409 when the run has already ended.");

        group.MapGet("/{id:long}/export.json", ExportJsonAsync)
            .Produces<RunExport>(StatusCodes.Status200OK, "application/json")
            .WithName("ExportRunJson")
            .WithSummary("Export a run as JSON")
            .WithDescription("Plan (secret names only), client environment, summary, verdict and every second with its client health, whether it was client-limited and why, "
                + "and its request buckets (sent late, not started, abandoned, given up), and the diagnostics of the slowest requests (slowRequests): the document POST /api/runs/import reads.");

        group.MapGet("/{id:long}/diagnostics", DiagnosticsAsync)
            .WithName("GetRunDiagnostics")
            .WithSummary("Read the diagnostics of a run's slowest requests")
            .WithDescription("The requests the plan's diagnostics settings kept (diagnostics.thresholdMs, diagnostics.slowestPerSecond; by default the slowest of every second; "
                + $"at most {DiagnosticsOptions.MaxPerSecond} a second and {DiagnosticsOptions.MaxEntries} a run, the slowest), each with its second, latency, status, outcome, attempts, target, "
                + "a summary line and the full text: the SDK's CosmosDiagnostics for Cosmos DB; request ids, status and timings for Azure Storage; the command and connection for Redis. "
                + "second=N reads one second's (404 when the run has no such second). Credentials never appear in them.");

        group.MapGet("/{id:long}/export.csv", ExportCsvAsync)
            .Produces(StatusCodes.Status200OK, contentType: "text/csv")
            .WithName("ExportRunCsv")
            .WithSummary("Export a run's seconds as CSV")
            .WithDescription("One row per second: " + string.Join(", ", RunTransfer.CsvColumns) + ". Numbers in the invariant culture.");

        group.MapPost("/import", ImportAsync)
            .RequireAuthorization(Policies.Runner)
            .Accepts<RunExport>("application/json")
            .WithName("ImportRun")
            .WithSummary("Import a run exported by another installation, or a headless run's result file")
            .WithDescription("Reads the document GET /api/runs/{id}/export.json writes, which is also the result file of the headless command (BenchWeb run; runId null). "
                + "Checks the document (format version, plan, seconds numbered 0…n−1, the seconds' ok counts adding up to the summary's total, an ended status, "
                + "client health and request buckets in range, the client-limited spans those of the seconds, slow requests of the run's seconds with bounded texts; exports without client health or slow requests still import) "
                + "and stores it as an imported run. Answers 201 with the new run's address, or a validation problem naming each faulty field; "
                + "409 when the same run (its number where it ran, or for a headless run its machine, its start and its target) was imported before, naming the run it became.")
            .ProducesProblem(StatusCodes.Status409Conflict);

        return group;
    }

    // Query values arrive as text and are parsed here, so a bad one is a validation problem naming it, not a bare 400.
    internal static async Task<Results<Ok<RunPage>, ValidationProblem>> ListAsync(
        [Description("Page number, from 1 (default 1).")] string? page,
        [Description("Runs per page, 1–200 (default 20).")] string? pageSize,
        [Description("Only runs with this status: Queued, Running, Completed, Stopped, Cancelled, Failed or Interrupted.")] string? status,
        [Description("Only runs whose metadata has this pair, written key=value (e.g. commit=1a2b3c4); key and value match exactly.")] string? meta,
        [Description("Only the steps of this sweep, by its number (re-runs included).")] string? sweep,
        RunReader reader, CancellationToken cancellationToken)
    {
        var errors = new List<FieldError>();
        var pageNumber = QueryNumbers.ParseInt(page, 1, "page", 1, int.MaxValue, errors);
        var size = QueryNumbers.ParseInt(pageSize, DefaultPageSize, "pageSize", 1, MaxPageSize, errors);
        RunStatus? statusFilter = null;
        if (!string.IsNullOrWhiteSpace(status))
        {
            if (RunHistoryQuery.Named<RunStatus>(status) is { } parsed)
            {
                statusFilter = parsed;
            }
            else
            {
                errors.Add(new("status", $"'{status}' is not a status: use one of {string.Join(", ", Enum.GetNames<RunStatus>())}."));
            }
        }

        // The run list's filter takes a pair that is not key=value as no filter; the API says what is wrong with it.
        if (!string.IsNullOrWhiteSpace(meta) && RunMetadata.TryParsePair(meta, out _) is { } problem)
        {
            errors.Add(new("meta", problem));
        }

        long? sweepFilter = null;
        if (!string.IsNullOrWhiteSpace(sweep))
        {
            if (long.TryParse(sweep, NumberStyles.None, CultureInfo.InvariantCulture, out var sweepId) && sweepId >= 1)
            {
                sweepFilter = sweepId;
            }
            else
            {
                errors.Add(new("sweep", $"'{sweep}' is not a sweep's number: use the whole number from its page, e.g. sweep=12."));
            }
        }

        if (errors.Count > 0)
        {
            return ApiJson.Invalid(errors);
        }

        // The run list's filter and query, newest queued first.
        var filter = new RunHistoryFilter
        {
            Status = statusFilter,
            Meta = string.IsNullOrWhiteSpace(meta) ? null : meta,
            Sweep = sweepFilter,
            Sort = RunHistorySort.Queued,
            Descending = true,
            Page = pageNumber,
            PageSize = size,
        };
        var found = await reader.ListAsync(filter, cancellationToken);
        return TypedResults.Ok(new RunPage(found.Runs.Select(RunListItem.From).ToList(), pageNumber, size, found.TotalCount));
    }

    internal static async Task<Results<Ok<RunDetails>, ProblemHttpResult>> GetAsync(long id, RunReader reader, CancellationToken cancellationToken) =>
        await FindAsync(reader, id, cancellationToken) is { } details
            ? TypedResults.Ok(details)
            : NoSuchRun(id);

    internal static async Task<Results<Accepted<RunDetails>, ValidationProblem, ProblemHttpResult>> StartAsync(
        HttpRequest request, RunService runs, RunReader reader, ProfileReader profiles, CancellationToken cancellationToken)
    {
        var (body, problem) = await ApiJson.ReadAsync<StartRunRequest>(request, "the plan to run (or a profile's id)", cancellationToken);
        if (problem is not null)
        {
            return problem;
        }

        var (plan, profile, invalid) = await PlanToLaunchAsync(body!.ProfileId, body.Plan, profiles, cancellationToken);
        if (invalid is not null)
        {
            return invalid;
        }

        try
        {
            var runId = await runs.StartAsync(plan!, profile?.Id, profile?.PresetId, body.Metadata ?? RunMetadata.Empty, request.HttpContext.Actor(), cancellationToken);
            return TypedResults.Accepted($"{Path}/{runId}", await FindAsync(reader, runId, cancellationToken));
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

    /// <summary>What a launch request names: a saved profile (<paramref name="profileId"/>) or an inline plan, exactly one of
    /// them; otherwise a validation problem on <c>ProfileId</c>.</summary>
    internal static async Task<(RunPlan? Plan, ProfileEntity? Profile, ValidationProblem? Problem)> PlanToLaunchAsync(
        long? profileId, RunPlan? plan, ProfileReader profiles, CancellationToken cancellationToken)
    {
        if ((profileId is null) == (plan is null))
        {
            return (null, null, ApiJson.Invalid([new FieldError("ProfileId", "Give either profileId (a saved profile) or plan (an inline plan), not both and not neither.")]));
        }

        if (profileId is not { } id)
        {
            return (plan, null, null);
        }

        return await profiles.FindAsync(id, cancellationToken) is { } profile
            ? (RunPlan.FromJson(profile.PlanJson), profile, null)
            : (null, null, ApiJson.Invalid([new FieldError("ProfileId", $"Profile {id} does not exist.")]));
    }

    internal static async Task<Results<Accepted<RunDetails>, ProblemHttpResult>> CancelAsync(
        long id, HttpContext http, RunService runs, RunReader reader, CancellationToken cancellationToken)
    {
        if (await FindAsync(reader, id, cancellationToken) is not { } before)
        {
            return NoSuchRun(id);
        }

        if (!await runs.CancelAsync(id, http.Actor(), cancellationToken))
        {
            var ended = await FindAsync(reader, id, cancellationToken) ?? before;
            return TypedResults.Problem(
                statusCode: StatusCodes.Status409Conflict,
                title: "The run has already ended.",
                detail: $"Run {id} ended as {ended.Status}; there is nothing to cancel.");
        }

        return TypedResults.Accepted($"{Path}/{id}", await FindAsync(reader, id, cancellationToken));
    }

    internal static async Task<Results<FileContentHttpResult, ProblemHttpResult>> ExportJsonAsync(long id, RunReader reader, CancellationToken cancellationToken) =>
        await reader.ExportAsync(id, cancellationToken) is { } export
            ? TypedResults.File(Encoding.UTF8.GetBytes(RunTransfer.ToJson(export)), "application/json", $"run-{id}.json")
            : NoSuchRun(id);

    internal static async Task<Results<Ok<RunDiagnosticsResponse>, ValidationProblem, ProblemHttpResult>> DiagnosticsAsync(
        long id,
        [Description("Only the entries of this second of the run (from 0).")] string? second,
        RunReader reader,
        CancellationToken cancellationToken)
    {
        var errors = new List<FieldError>();
        int? only = string.IsNullOrWhiteSpace(second) ? null : QueryNumbers.ParseInt(second, 0, "second", 0, int.MaxValue, errors);
        if (errors.Count > 0)
        {
            return ApiJson.Invalid(errors);
        }

        if (await reader.DiagnosticsAsync(id, only, cancellationToken) is not { } requests)
        {
            return NoSuchRun(id);
        }

        // A second past the run's last is not a quiet second: say which seconds the run has.
        if (only is { } asked && requests.Count == 0 && await reader.LastSecondAsync(id, cancellationToken) is var last && !(asked <= last))
        {
            return ApiJson.NotFound(last is { } l
                ? string.Create(CultureInfo.InvariantCulture, $"Run {id} has no second {asked}: its seconds are 0–{l}.")
                : string.Create(CultureInfo.InvariantCulture, $"Run {id} has no second {asked}: it has measured no seconds yet."));
        }

        return TypedResults.Ok(new RunDiagnosticsResponse(id, only, requests));
    }

    internal static async Task<Results<FileContentHttpResult, ProblemHttpResult>> ExportCsvAsync(long id, RunReader reader, CancellationToken cancellationToken)
    {
        if (await reader.ExportAsync(id, cancellationToken) is not { } export)
        {
            return NoSuchRun(id);
        }

        await using var text = new StringWriter(CultureInfo.InvariantCulture);
        await RunTransfer.WriteCsvAsync(export, text, cancellationToken);
        return TypedResults.File(Encoding.UTF8.GetBytes(text.ToString()), "text/csv", $"run-{id}.csv");
    }

    internal static async Task<Results<Created<RunDetails>, ValidationProblem, ProblemHttpResult>> ImportAsync(
        HttpRequest request, RunTransfer transfer, RunReader reader, CancellationToken cancellationToken)
    {
        var (document, problem) = await ApiJson.ReadAsync<RunExport>(request, "the run export", cancellationToken);
        if (problem is not null)
        {
            return problem;
        }

        var errors = await transfer.ValidateAsync(document!, cancellationToken);
        if (errors.Count > 0)
        {
            return ApiJson.Invalid(errors, "The run export cannot be imported.");
        }

        try
        {
            var runId = await transfer.ImportAsync(document!, request.HttpContext.Actor(), cancellationToken);
            return TypedResults.Created($"{Path}/{runId}", await FindAsync(reader, runId, cancellationToken));
        }
        catch (RunAlreadyImportedException ex)
        {
            return TypedResults.Problem(
                statusCode: StatusCodes.Status409Conflict,
                title: ex.Earlier.RanHere ? "This run is this installation's own." : "This run was imported already.",
                detail: ex.Earlier.Message,
                extensions: new Dictionary<string, object?> { ["runId"] = ex.Earlier.RunId, ["location"] = $"{Path}/{ex.Earlier.RunId}" });
        }
    }

    private static async Task<RunDetails?> FindAsync(RunReader reader, long id, CancellationToken cancellationToken) =>
        await reader.WithSecondCountAsync(id, cancellationToken) is { } found ? RunDetails.From(found.Run, found.SecondsRecorded) : null;

    private static ProblemHttpResult NoSuchRun(long id) => ApiJson.NotFound($"Run {id} does not exist.");
}
