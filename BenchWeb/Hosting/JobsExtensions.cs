using BenchWeb.Configuration;
using BenchWeb.Execution;
using BenchWeb.Guard.Security;
using BenchWeb.Jobs;
using Hangfire;
using Hangfire.PostgreSql;
using Hangfire.PostgreSql.Factories;
using Hangfire.AspNetCore;
using Hangfire.Dashboard;
using Hangfire.InMemory;
using Microsoft.Extensions.Options;

namespace BenchWeb.Hosting;

/// <summary>Background jobs on Hangfire: the one place that knows the job storage, the server's settings and the
/// dashboard. Embedded mode keeps jobs in memory; shared mode in the shared PostgreSQL database (Hangfire.PostgreSql,
/// schema <c>hangfire</c>), where every agent's server takes them.</summary>
public static class JobsExtensions
{
    public const string DashboardPath = "/hangfire";

    // Embedded in this assembly (Jobs/DashboardClock.js), appended to the dashboard's scripts.
    private const string DashboardClockScript = "BenchWeb.Jobs.DashboardClock.js";

    private static readonly Lock GlobalFiltersGate = new();
    private static bool _globalFiltersSet;

    public static IServiceCollection AddRunJobs(this IServiceCollection services, BenchWebOptions options, SharedMode? shared)
    {
        ArgumentNullException.ThrowIfNull(options);
        NeverRetryAutomatically();

        // Hangfire keeps its defaults in statics (JobStorage.Current, JobActivator.Current). Registered here first, each
        // app has its own storage and its own DI scope for jobs, so two apps in one process never take each other's
        // jobs. The storage is made once Hangfire is configured (it logs from its constructor) and disposed with the app.
        services.AddSingleton(sp =>
        {
            sp.GetRequiredService<IGlobalConfiguration>();
            return CreateStorage(shared);
        });
        services.AddSingleton<JobActivator>(sp => new AspNetCoreJobActivator(sp.GetRequiredService<IServiceScopeFactory>()));
        services.AddHangfire((sp, configuration) => configuration
            .UseLogProvider(new HangfireLogProvider(sp.GetRequiredService<ILoggerFactory>()))
            .SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
            .UseSimpleAssemblyNameTypeSerializer()
            .UseRecommendedSerializerSettings()
            // The dashboard's times on a 24-hour clock, as on every other page.
            .UseDashboardJavaScript(typeof(JobsExtensions).Assembly, DashboardClockScript));
        services.AddTransient<RunBenchmarkJob>();
        services.AddTransient<RunSweepJob>();
        services.AddTransient<RunShardJob>();
        services.AddSingleton<IRunJobClient, HangfireRunJobClient>();

        // A dashboard-only instance enqueues and cancels jobs but never takes one.
        if (!options.Agent.ExecutesRuns)
        {
            return services;
        }

        services.AddHangfireServer((sp, server) =>
        {
            // One worker per run that may execute at once: two runs on one client measure each other.
            server.WorkerCount = sp.GetRequiredService<IOptions<BenchWebOptions>>().Value.MaxConcurrentRuns;

            // Its own queue first (the shards of runs spread over agents name their agent), then the common one.
            var agent = sp.GetRequiredService<AgentIdentity>();
            server.Queues = [agent.Queue, RunBenchmarkJob.Queue];
            server.ServerName = $"{agent.Name}:{agent.Id}";

            // A cancelled (deleted) job's token is signalled at the next check: keep a cancel within about a second.
            server.CancellationCheckInterval = TimeSpan.FromSeconds(1);
        });
        return services;
    }

    /// <summary>The Hangfire dashboard, for admins (the app's own sign-in and roles, not Hangfire's filters). Read-only:
    /// a run is cancelled from its own page, which records why; re-queuing a benchmark's job from here would do nothing
    /// (its run has ended) or, worse, look as if it had.</summary>
    public static IEndpointConventionBuilder MapJobsDashboard(this IEndpointRouteBuilder endpoints) =>
        endpoints.MapHangfireDashboardWithNoAuthorizationFilters(DashboardPath, new DashboardOptions
        {
            DashboardTitle = "BenchWeb · jobs",
            AppPath = "/",
            IsReadOnlyFunc = _ => true,
            DisplayStorageConnectionString = false,
        }).RequireAuthorization(Policies.Admin);

    private static JobStorage CreateStorage(SharedMode? shared)
    {
        if (shared is null)
        {
            // Jobs live as long as the process; the run rows in the database are the durable record, and at start-up
            // runs a stopped process left queued or running are closed (RunRecoveryService).
            return new InMemoryStorage(new InMemoryStorageOptions { IdType = InMemoryStorageIdType.Long });
        }

        var storageOptions = new PostgreSqlStorageOptions
        {
            SchemaName = "hangfire",
            PrepareSchemaIfNecessary = true,

            // A waiting shard is picked up within about a second (the default polls every 15 s), so spread runs start together.
            QueuePollInterval = TimeSpan.FromSeconds(1),
            EnableLongPolling = true,
        };
        return new PostgreSqlStorage(new NpgsqlConnectionFactory(shared.DatabaseConnectionString, storageOptions), storageOptions);
    }

    // A benchmark must never run twice by itself. Hangfire's global default retries a failed job ten times; the
    // filter list is process-wide, so it is changed once.
    private static void NeverRetryAutomatically()
    {
        lock (GlobalFiltersGate)
        {
            if (!_globalFiltersSet)
            {
                GlobalJobFilters.Filters.Remove<AutomaticRetryAttribute>();
                GlobalJobFilters.Filters.Add(new AutomaticRetryAttribute { Attempts = 0, OnAttemptsExceeded = AttemptsExceededAction.Fail });
                _globalFiltersSet = true;
            }
        }
    }
}
