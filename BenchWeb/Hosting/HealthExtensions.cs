using BenchWeb.Health;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;

namespace BenchWeb.Hosting;

/// <summary>Health endpoints for App Service's health check and container probes, which carry no sign-in: anonymous, and
/// answering the status word alone (Healthy, Degraded or Unhealthy; 503 when unhealthy), never which dependency failed
/// or how to reach it. Why a check failed is in the log.</summary>
public static class HealthExtensions
{
    /// <summary>The process is up and serving requests; nothing else is checked (a restart would not fix a dependency).</summary>
    public const string LivePath = "/health/live";

    /// <summary>The instance can do its work: the database, the job storage and, when configured, the Redis backplane
    /// answer. App Service's health check path: an instance that fails it gets no traffic.</summary>
    public const string ReadyPath = "/health/ready";

    private const string ReadyTag = "ready";

    /// <summary>A check that has not answered by then counts as failed: a probe must not hang on a silent server.</summary>
    private static readonly TimeSpan CheckTimeout = TimeSpan.FromSeconds(10);

    public static IServiceCollection AddBenchWebHealthChecks(this IServiceCollection services, IConfiguration configuration)
    {
        var checks = services.AddHealthChecks()
            .AddCheck<DatabaseHealthCheck>("database", tags: [ReadyTag], timeout: CheckTimeout)
            .AddCheck<JobStorageHealthCheck>("job-storage", tags: [ReadyTag], timeout: CheckTimeout);
        if (configuration.GetConnectionString(RedisBackplaneHealthCheck.ConnectionStringName) is { Length: > 0 } redis)
        {
            // Made by a factory, so the container disposes it (and its connection) with the app.
            services.AddSingleton(_ => new RedisBackplaneHealthCheck(redis));
            checks.AddCheck<RedisBackplaneHealthCheck>("redis-backplane", tags: [ReadyTag], timeout: CheckTimeout);
        }

        return services;
    }

    public static IEndpointRouteBuilder MapHealthEndpoints(this IEndpointRouteBuilder endpoints)
    {
        // The default writer sends the status word only; the default codes are 200 for Healthy and Degraded, 503 for Unhealthy.
        endpoints.MapHealthChecks(LivePath, new HealthCheckOptions { Predicate = _ => false }).AllowAnonymous();
        endpoints.MapHealthChecks(ReadyPath, new HealthCheckOptions { Predicate = check => check.Tags.Contains(ReadyTag) }).AllowAnonymous();
        return endpoints;
    }
}
