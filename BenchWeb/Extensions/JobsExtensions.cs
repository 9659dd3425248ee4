using BenchWeb.Jobs;
using Hangfire;
using Hangfire.AspNetCore;
using BenchWeb.Security;
using Hangfire.Dashboard;
using Hangfire.InMemory;
using Microsoft.Extensions.Options;

namespace BenchWeb.Extensions;

/// <summary>Background jobs on Hangfire: the one place that knows the job storage, the server's settings and the
/// dashboard. A shared storage (for several instances) plugs in here, chosen by <see cref="BenchWebOptions.JobStorage"/>.</summary>
public static class JobsExtensions
{
    public const string DashboardPath = "/hangfire";

    /// <summary>Hangfire's in-memory storage, the default.</summary>
    public const string DefaultStorage = "InMemory";

    /// <summary>The storages this build knows, by the configuration value that selects them.</summary>
    public static readonly IReadOnlyList<string> Storages = [DefaultStorage];

    private static readonly Lock GlobalFiltersGate = new();
    private static bool _globalFiltersSet;

    public static IServiceCollection AddRunJobs(this IServiceCollection services, BenchWebOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var storageName = options.JobStorage;
        EnsureKnown(storageName);
        NeverRetryAutomatically();

        // Hangfire keeps its defaults in statics (JobStorage.Current, JobActivator.Current). Registered here first, each
        // app has its own storage and its own DI scope for jobs, so two apps in one process never take each other's
        // jobs. The storage is made once Hangfire is configured (it logs from its constructor) and disposed with the app.
        services.AddSingleton(sp =>
        {
            sp.GetRequiredService<IGlobalConfiguration>();
            return CreateStorage(storageName);
        });
        services.AddSingleton<JobActivator>(sp => new AspNetCoreJobActivator(sp.GetRequiredService<IServiceScopeFactory>()));
        services.AddHangfire((sp, configuration) => configuration
            .UseLogProvider(new HangfireLogProvider(sp.GetRequiredService<ILoggerFactory>()))
            .SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
            .UseSimpleAssemblyNameTypeSerializer()
            .UseRecommendedSerializerSettings());
        services.AddHangfireServer((sp, server) =>
        {
            // One worker per run that may execute at once: two runs on one client measure each other.
            server.WorkerCount = sp.GetRequiredService<IOptions<BenchWebOptions>>().Value.MaxConcurrentRuns;
            server.Queues = [RunBenchmarkJob.Queue];

            // A cancelled (deleted) job's token is signalled at the next check: keep a cancel within about a second.
            server.CancellationCheckInterval = TimeSpan.FromSeconds(1);
        });
        services.AddTransient<RunBenchmarkJob>();
        services.AddSingleton<IRunJobClient, HangfireRunJobClient>();
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

    [System.Diagnostics.CodeAnalysis.SuppressMessage("Performance", "CA1859", Justification = "Shared storages join the switch.")]
    private static JobStorage CreateStorage(string name) => name switch
    {
        // Jobs live as long as the process; the run rows in the database are the durable record, and at start-up
        // runs a stopped process left queued or running are closed (RunRecoveryService).
        DefaultStorage => new InMemoryStorage(new InMemoryStorageOptions { IdType = InMemoryStorageIdType.Long }),
        _ => throw new InvalidOperationException($"Unknown job storage '{name}'."),
    };

    private static void EnsureKnown(string name)
    {
        if (!Storages.Contains(name, StringComparer.Ordinal))
        {
            throw new OptionsValidationException(
                BenchWebOptions.SectionName,
                typeof(BenchWebOptions),
                [$"{BenchWebOptions.SectionName}:{nameof(BenchWebOptions.JobStorage)} is '{name}'; this build knows {string.Join(", ", Storages)}."]);
        }
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
