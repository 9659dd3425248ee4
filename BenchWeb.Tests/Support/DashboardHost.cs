using BenchWeb.Data;
using BenchWeb.Hosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>The real dashboard, hosted in the test process on a free loopback port, with its own SQLite file,
/// Data Protection keys and job scheduler in a data folder of its own.</summary>
public sealed class DashboardHost : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly bool _ownsDataDirectory;
    private bool _stopped;

    private DashboardHost(WebApplication app, string dataDirectory, bool ownsDataDirectory)
    {
        _app = app;
        DataDirectory = dataDirectory;
        _ownsDataDirectory = ownsDataDirectory;
    }

    public string DataDirectory { get; }

    public IServiceProvider Services => _app.Services;

    /// <summary>Where the app listens, e.g. <c>http://127.0.0.1:40123/</c>.</summary>
    public Uri BaseAddress => new(_app.Urls.First().TrimEnd('/') + "/");

    /// <summary>A new, empty data folder (deleted with <see cref="DeleteDataDirectory"/>).</summary>
    public static string NewDataDirectory() => Directory.CreateTempSubdirectory("benchweb-dashboard-").FullName;

    /// <summary>Starts the app on a fresh data folder, deleted when the host is disposed.</summary>
    public static Task<DashboardHost> StartAsync(IReadOnlyDictionary<string, string?>? settings = null) =>
        StartAsync(NewDataDirectory(), ownsDataDirectory: true, settings);

    /// <summary>Starts the app on a fresh data folder with services of the test's own besides (a startup filter that
    /// watches the requests the app receives, before any of its own middleware sees them).</summary>
    public static Task<DashboardHost> StartAsync(IReadOnlyDictionary<string, string?>? settings, Action<IServiceCollection> services) =>
        StartAsync(NewDataDirectory(), ownsDataDirectory: true, settings, services: services);

    /// <summary>Starts the app on an existing data folder (a restart), which the caller deletes.</summary>
    /// <param name="dataDirectory">The data folder.</param>
    /// <param name="settings">Settings over the test defaults.</param>
    /// <param name="console">Where the app writes to the console itself (the administrator's link); null: nowhere.</param>
    public static Task<DashboardHost> StartAsync(string dataDirectory, IReadOnlyDictionary<string, string?>? settings = null, TextWriter? console = null) =>
        StartAsync(dataDirectory, ownsDataDirectory: false, settings, console);

    private static async Task<DashboardHost> StartAsync(
        string dataDirectory, bool ownsDataDirectory, IReadOnlyDictionary<string, string?>? settings, TextWriter? console = null, Action<IServiceCollection>? services = null)
    {
        var app = BenchWebApplication.Create(["--urls", "http://127.0.0.1:0"], builder =>
        {
            builder.Environment.EnvironmentName = "Test";
            builder.Configuration["BenchWeb:DataDirectory"] = dataDirectory;
            // The tests' Cosmos DB and Table servers listen on loopback; a test about the refusal sets it back to false.
            builder.Configuration["BenchWeb:Security:AllowLoopbackEndpoints"] = "true";
            foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
            {
                builder.Configuration[key] = value;
            }

            // The test output stays readable; what a run did is in its row.
            builder.Logging.ClearProviders();
            builder.Services.AddSingleton(sp => BenchWeb.Guard.Security.LocalAdminLink.Create(sp, console ?? TextWriter.Null));
            services?.Invoke(builder.Services);
        });
        try
        {
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            if (ownsDataDirectory)
            {
                DeleteDataDirectory(dataDirectory);
            }

            throw;
        }

        return new DashboardHost(app, dataDirectory, ownsDataDirectory);
    }

    public T Get<T>()
        where T : notnull => Services.GetRequiredService<T>();

    public Task<BenchDbContext> OpenDatabaseAsync() => Services.OpenDatabaseAsync();

    /// <summary>An HTTP client of the app signed in with a new API token of this role.</summary>
    public async Task<HttpClient> CreateClientAsync(string role, HttpMessageHandler? handler = null) =>
        new HttpClient(handler ?? new HttpClientHandler()) { BaseAddress = BaseAddress }.WithToken(await Services.CreateTokenAsync(role));

    public Task<RunEntity> RunAsync(long runId) => Services.RunAsync(runId);

    public Task<List<RunSecondEntity>> SecondsAsync(long runId) => Services.SecondsAsync(runId);

    public Task<RunEntity> WaitUntilEndedAsync(long runId, TimeSpan timeout) => Services.WaitUntilEndedAsync(runId, timeout);

    /// <summary>Stops the app as a shutdown would (running jobs see the application stopping).</summary>
    public async Task StopAsync()
    {
        if (!_stopped)
        {
            _stopped = true;
            await _app.StopAsync(CancellationToken.None);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        await _app.DisposeAsync();
        if (_ownsDataDirectory)
        {
            DeleteDataDirectory(DataDirectory);
        }
    }

    /// <summary>Deletes a data folder; pooled SQLite connections would keep the database file open.</summary>
    public static void DeleteDataDirectory(string dataDirectory)
    {
        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(dataDirectory, recursive: true);
        }
        catch (IOException)
        {
            // A temp folder left behind is harmless.
        }
    }
}
