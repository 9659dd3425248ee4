using System.Text.Json.Serialization;
using BenchEngine.Running;
using BenchWeb.Administration;
using BenchWeb.Audit;
using BenchWeb.Data;
using BenchWeb.Hubs;
using BenchWeb.Profiles;
using BenchWeb.Runs;
using BenchWeb.Secrets;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Extensions;

/// <summary>The dashboard's services, on the embedded defaults: a SQLite file, uploaded workload files beside it,
/// in-process background jobs (Hangfire, in-memory storage) and the simulated target preselected.</summary>
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
        var connectionString = builder.Configuration.GetConnectionString("BenchDb") is { Length: > 0 } configured
            ? configured
            : $"Data Source={Path.Combine(dataDirectory, "benchweb.db")}";
        services.AddDbContextFactory<BenchDbContext>(db => db.UseSqlite(connectionString));
        services.AddBenchWebDataProtection(options, dataDirectory);

        services.AddSingleton(TimeProvider.System);
        // Runs read uploaded files through the dashboard's source: its failures never quote the file.
        services.AddSingleton(sp => new BenchmarkRunner(sp.GetRequiredService<TimeProvider>(), sourceFactory: UploadedCsvSource.Create));
        services.AddSingleton<CsvUploadStore>();
        services.AddSingleton<AuditLog>();
        services.AddOptions<InstallationLimitsOptions>().BindConfiguration(InstallationLimitsOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<InstallationSettingsService>();
        services.AddSingleton<KillSwitch>();
        services.AddSingleton<SecretStore>();
        services.AddSingleton<RunUpdatePublisher>();
        services.AddSingleton<ExecutingRuns>();
        services.AddSingleton<RunExecutor>();
        services.AddSingleton<RunService>();
        services.AddSingleton<ProfileService>();
        services.AddSingleton<RunTransfer>();
        services.AddOpenApi();
        services.AddProblemDetails();
        services.ConfigureHttpJsonOptions(json => json.SerializerOptions.Converters.Add(new JsonStringEnumConverter()));

        // Order matters: the schema and left-open runs are dealt with before the job server starts taking jobs.
        services.AddHostedService<RunRecoveryService>();
        services.AddHostedService<UploadCleanupService>();
        services.AddRunJobs(options);

        builder.AddBenchWebSecurity();
        builder.AddBenchWebTelemetry();
        services.AddSignalR().AddJsonProtocol(json => json.PayloadSerializerOptions.Converters.Add(new JsonStringEnumConverter()));
        services.AddRazorComponents().AddInteractiveServerComponents();
        return builder;
    }
}
