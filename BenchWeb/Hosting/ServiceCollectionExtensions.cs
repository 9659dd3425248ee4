using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Apis;
using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Fleet;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Secrets;
using BenchWeb.History;
using BenchWeb.Launch;
using BenchWeb.Live;
using BenchWeb.Profiles;
using BenchWeb.Transfer;
using BenchWeb.Uploads;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.Extensions.Options;

namespace BenchWeb.Hosting;

/// <summary>The dashboard's services, on the embedded defaults: a SQLite file, uploaded workload files beside it,
/// in-process background jobs (Hangfire, in-memory storage) and the simulated target preselected. In shared mode
/// (<see cref="SharedMode"/>) the same services on PostgreSQL, Hangfire.PostgreSql and a Redis backplane.</summary>
public static class ServiceCollectionExtensions
{
    public static WebApplicationBuilder AddBenchWeb(this WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddOptions<BenchWebOptions>().BindConfiguration(BenchWebOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();

        var options = builder.Configuration.GetSection(BenchWebOptions.SectionName).Get<BenchWebOptions>() ?? new BenchWebOptions();
        var dataDirectory = options.ResolveDataDirectory();
        Directory.CreateDirectory(dataDirectory);
        var shared = SharedMode.Read(builder.Configuration, options);
        if (shared is not null)
        {
            services.AddSingleton(shared);
            // The pages' live feed between instances: a second an agent saved reaches the page on any instance.
            services.AddSingleton<Live.RedisLiveRelay>();
            services.AddHostedService(sp => sp.GetRequiredService<Live.RedisLiveRelay>());
            services.AddDbContextFactory<BenchDbContext, PostgreSqlContextFactory>(db => db.UseNpgsql(shared.DatabaseConnectionString));
        }
        else
        {
            var connectionString = builder.Configuration.GetConnectionString(SharedMode.DatabaseConnectionName) is { Length: > 0 } configured
                ? configured
                : $"Data Source={Path.Combine(dataDirectory, "benchweb.db")}";
            // SQLite changes a column by rebuilding its table, with foreign keys off around it: EF warns, on every first
            // start, that the rebuild cannot run in a transaction. That is how SQLite migrates, not a fault: it is logged at
            // Debug, where it does not read as one.
            services.AddDbContextFactory<BenchDbContext>(db => db.UseSqlite(connectionString).ConfigureWarnings(warnings =>
                warnings.Log((RelationalEventId.NonTransactionalMigrationOperationWarning, LogLevel.Debug))));
        }

        services.AddBenchWebDataProtection(options, dataDirectory, shared is not null);

        services.AddSingleton(TimeProvider.System);
        services.AddClientLimits();
        // Runs read uploaded files through the dashboard's source: its failures never quote the file. Every run the app
        // executes (single, shard or sweep step) goes through this runner, so all judge their seconds by the configured bounds.
        services.AddSingleton(sp => new BenchmarkRunner(sp.GetRequiredService<TimeProvider>(), sourceFactory: UploadedCsvSource.Create)
        {
            ClientLimits = sp.GetRequiredService<IOptions<BenchEngine.Metrics.ClientLimits>>().Value,
        });
        services.AddSingleton<CsvUploadStore>();
        services.AddSingleton<AuditLog>();
        services.AddOptions<InstallationLimitsOptions>().BindConfiguration(InstallationLimitsOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<InstallationSettingsService>();
        services.AddSingleton<KillSwitch>();
        services.AddSingleton<SecretStore>();
        services.AddSingleton<Live.LiveFeed>();
        services.AddReadSides();
        services.AddSingleton<RunUpdatePublisher>();
        services.AddSingleton<ExecutingRuns>();
        services.AddSingleton<RunExecutor>();
        services.AddSingleton<RunService>();
        services.AddSingleton<Sweeps.SweepService>();
        services.AddSingleton<Sweeps.SweepExecutor>();
        services.AddSingleton<ProfileService>();
        services.AddSingleton<RunTransfer>();
        services.AddOpenApi(openApi => openApi.AddSchemaTransformer<RunMetadataSchemaTransformer>());
        services.AddProblemDetails();
        services.ConfigureHttpJsonOptions(json =>
        {
            json.SerializerOptions.Converters.Add(new JsonStringEnumConverter());
            // A number is written as one, as in a plan's file ("5" where a number belongs is refused on its field; "NaN" is
            // read, to be refused by the setting's rules on its name).
            json.SerializerOptions.NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals;

            // A plan in an answer is the plan as stored and exported: its target's own section only.
            json.SerializerOptions.TypeInfoResolver = (json.SerializerOptions.TypeInfoResolver ?? new DefaultJsonTypeInfoResolver())
                .WithAddedModifier(TargetSectionsJson.WriteOwnSectionOnly);
        });

        // Order matters: the schema and left-open runs are dealt with before the job server starts taking jobs.
        services.AddHostedService<RunRecoveryService>();
        services.AddHostedService<UploadCleanupService>();
        services.AddAgents(options);
        services.AddRunJobs(options, shared);
        services.AddBenchWebHealthChecks(builder.Configuration);

        builder.AddBenchWebSecurity();
        builder.AddBenchWebTelemetry();
        var signalR = services.AddSignalR().AddJsonProtocol(json => json.PayloadSerializerOptions.Converters.Add(new JsonStringEnumConverter()));
        if (shared is not null)
        {
            // Every instance's hub reaches every viewer: a second measured on one agent is pushed through Redis to the
            // viewers connected to any instance.
            signalR.AddStackExchangeRedis(shared.RedisConfiguration, redis => redis.Configuration.ChannelPrefix = StackExchange.Redis.RedisChannel.Literal("BenchWeb"));
        }

        services.AddRazorComponents().AddInteractiveServerComponents();
        return builder;
    }

    /// <summary>The read side of each aggregate (runs, sweeps, profiles), and the delegates through which the parts below
    /// them ask it: the hub and the live feed's follower for saved seconds, the upload store for the plans that name a
    /// file, the fleet's directory for the runs each agent executes.</summary>
    public static IServiceCollection AddReadSides(this IServiceCollection services)
    {
        services.AddSingleton<RunReader>();
        services.AddSingleton<SavedSecondsReader>(sp => sp.GetRequiredService<RunReader>().SecondsAsync);
        services.AddSingleton<PendingRunPlansReader>(sp => sp.GetRequiredService<RunReader>().PendingPlansMentioningAsync);
        services.AddSingleton<RunningRunsPerAgentReader>(sp => sp.GetRequiredService<RunReader>().RunningPerAgentAsync);
        services.AddSingleton<RunOutcomeReader>(sp => sp.GetRequiredService<RunReader>().OutcomeAsync);
        services.AddSingleton<Sweeps.SweepReader>();
        services.AddSingleton<ProfileReader>();
        services.AddSingleton<ProfilePlansReader>(sp => sp.GetRequiredService<ProfileReader>().PlansMentioningAsync);
        return services;
    }
}
