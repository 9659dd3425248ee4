using System.Net;
using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Quartz;
using Quartz.Impl.Matchers;

namespace BenchWeb.Jobs;

/// <summary>The job scheduler's dashboard at <c>/jobs</c>: what executes now and what waits. Local requests
/// only, until the dashboard has sign-in.</summary>
public static class JobsPageEndpoints
{
    public const string Path = "/jobs";

    public static IEndpointRouteBuilder MapJobsPage(this IEndpointRouteBuilder endpoints)
    {
        endpoints.MapGet(Path, async Task<Results<RazorComponentResult<JobsPage>, ProblemHttpResult>> (HttpContext http, QuartzSchedulerHost host, IDbContextFactory<BenchDbContext> databases, CancellationToken cancellationToken) =>
        {
            if (!IsLocal(http.Connection))
            {
                return TypedResults.Problem(statusCode: StatusCodes.Status403Forbidden, title: "The jobs dashboard answers local requests only.");
            }

            var scheduler = await host.GetSchedulerAsync(cancellationToken);
            var metadata = await scheduler.GetMetaData(cancellationToken);
            var executing = await scheduler.GetCurrentlyExecutingJobs(cancellationToken);
            var waiting = new List<JobsPage.WaitingJob>();
            foreach (var key in await scheduler.GetTriggerKeys(GroupMatcher<TriggerKey>.AnyGroup(), cancellationToken))
            {
                var trigger = await scheduler.GetTrigger(key, cancellationToken);
                var state = await scheduler.GetTriggerState(key, cancellationToken);
                if (trigger is not null && executing.All(e => !e.JobDetail.Key.Equals(trigger.JobKey)))
                {
                    waiting.Add(new JobsPage.WaitingJob(trigger.JobKey.ToString(), state.ToString(), trigger.StartTimeUtc));
                }
            }

            await using var db = await databases.CreateDbContextAsync(cancellationToken);
            var active = await db.Runs.AsNoTracking()
                .Where(r => r.Status == RunStatus.Queued || r.Status == RunStatus.Running)
                .OrderBy(r => r.Id)
                .ToListAsync(cancellationToken);
            return new RazorComponentResult<JobsPage>(new
            {
                Metadata = metadata,
                Executing = executing.Select(e => new JobsPage.ExecutingJob(e.JobDetail.Key.ToString(), e.FireTimeUtc, e.MergedJobDataMap.GetLong(RunBenchmarkJob.RunIdKey))).ToList(),
                Waiting = waiting,
                ActiveRuns = active,
            });
        }).ExcludeFromDescription();

        // Where users of Hangfire look for the jobs dashboard.
        endpoints.MapGet("/hangfire", () => TypedResults.Redirect(Path)).ExcludeFromDescription();
        return endpoints;
    }

    internal static bool IsLocal(ConnectionInfo connection) =>
        connection.RemoteIpAddress is { } remote && (IPAddress.IsLoopback(remote) || remote.Equals(connection.LocalIpAddress));
}
