using BenchEngine.Running;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Launch;
using Microsoft.AspNetCore.Http.HttpResults;

namespace BenchWeb.Apis;

/// <summary><c>/api/admin/kill-switch</c>, for administrators: stop every run and pause launching, or resume.</summary>
public static class KillSwitchApi
{
    public const string Path = "/api/admin/kill-switch";

    public static RouteGroupBuilder MapKillSwitchApi(this IEndpointRouteBuilder endpoints)
    {
        var group = endpoints.MapGroup(Path).WithTags("Administration").RequireAuthorization(Policies.Admin);

        group.MapGet("/", async (KillSwitch killSwitch, CancellationToken cancellationToken) => TypedResults.Ok(KillSwitchResponse.From(await killSwitch.StateAsync(cancellationToken))))
            .WithName("GetKillSwitch")
            .WithSummary("Whether launching is paused");

        group.MapPost("/", StopAllAsync)
            // The reason is optional: a POST without a body (curl -X POST) stops everything too, so the route takes any request
            // (routing would pass over one without a body type); a body is read as JSON.
            .WithName("StopAllRuns")
            .WithSummary("Stop all runs and pause launching")
            .WithDescription("Pauses launching (stored: it outlasts a restart), then cancels every queued and running run; each ends Cancelled and keeps its seconds. "
                + "Until launching resumes, every launch is refused with 409 and the reason given here. The body ({\"reason\": \"…\"}) is optional.");

        group.MapDelete("/", async (HttpContext http, KillSwitch killSwitch, CancellationToken cancellationToken) =>
                TypedResults.Ok(KillSwitchResponse.From(await killSwitch.ReleaseAsync(http.Actor(), cancellationToken))))
            .WithName("ResumeLaunching")
            .WithSummary("Resume launching");

        return group;
    }

    internal static async Task<Results<Ok<KillSwitchResponse>, ValidationProblem>> StopAllAsync(HttpRequest request, RunService runs, KillSwitch killSwitch, CancellationToken cancellationToken)
    {
        string? reason = null;
        if (request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0)
        {
            var (body, problem) = await ApiJson.ReadAsync<KillSwitchRequest>(request, "the reason", cancellationToken);
            if (problem is not null)
            {
                return problem;
            }

            reason = body!.Reason;
        }

        if (reason?.Trim().Length > KillSwitch.MaxReasonLength)
        {
            return ApiJson.Invalid([new("Reason", $"At most {KillSwitch.MaxReasonLength} characters.")]);
        }

        if (PlainText.Check(reason) is { } unprintable)
        {
            return ApiJson.Invalid([new("Reason", unprintable)]);
        }

        var cancelled = await runs.StopAllAsync(request.HttpContext.Actor(), reason, cancellationToken);
        return TypedResults.Ok(KillSwitchResponse.From(await killSwitch.StateAsync(cancellationToken), cancelled));
    }
}
