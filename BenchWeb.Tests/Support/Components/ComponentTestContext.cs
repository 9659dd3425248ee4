// Disposes the test renderer, a render-tree type.
#pragma warning disable BL0006
using BenchWeb.Data;
using BenchWeb.Hubs;
using BenchWeb.Jobs;
using BenchWeb.Profiles;
using BenchWeb.Runs;
using BenchWeb.Secrets;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.JSInterop;

namespace BenchWeb.Tests.Support.Components;

/// <summary>The app's services for component tests: a real SQLite file (migrated), the real secret store with
/// an in-memory Data Protection key, strict JS interop, and a navigation recorder. Jobs are only recorded:
/// component tests do not execute runs (the integration tests do).</summary>
internal sealed class ComponentTestContext : IAsyncDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "benchweb-components-" + Guid.NewGuid().ToString("N"));
    private readonly ServiceProvider _services;

    public ComponentTestContext(string relativeUri = "", IRunJobClient? jobs = null)
    {
        Directory.CreateDirectory(_directory);
        Navigation = new TestNavigationManager(relativeUri);
        var services = new ServiceCollection();
        services.AddLogging();
        services.AddSupplyValueFromQueryProvider();
        services.AddSignalR();
        services.AddDbContextFactory<BenchDbContext>(db => db.UseSqlite($"Data Source={Path.Combine(_directory, "benchweb.db")}"));
        services.AddSingleton<IDataProtectionProvider>(new EphemeralDataProtectionProvider());
        services.AddSingleton(TimeProvider.System);
        services.AddSingleton<SecretStore>();
        services.AddSingleton<ProfileService>();
        services.AddSingleton<RunService>();
        services.AddSingleton<RunUpdatePublisher>();
        services.AddSingleton(jobs ?? Jobs);
        services.AddSingleton<NavigationManager>(Navigation);
        services.AddSingleton<IJSRuntime>(JS);
        _services = services.BuildServiceProvider();
        using var db = Databases.CreateDbContext();
        db.Database.Migrate();
        Renderer = new TestRenderer(_services);
    }

    public IServiceProvider Services => _services;

    public TestRenderer Renderer { get; }

    public StrictJSRuntime JS { get; } = new();

    public TestNavigationManager Navigation { get; }

    public RecordingJobClient Jobs { get; } = new();

    public IDbContextFactory<BenchDbContext> Databases => _services.GetRequiredService<IDbContextFactory<BenchDbContext>>();

    public T Get<T>() where T : notnull => _services.GetRequiredService<T>();

    public Task<RenderedComponent<T>> RenderAsync<T>(IDictionary<string, object?>? parameters = null) where T : IComponent =>
        Renderer.RenderAsync<T>(parameters);

    public async ValueTask DisposeAsync()
    {
        await Renderer.DisposeAsync();
        await _services.DisposeAsync();
        SqliteConnection.ClearAllPools();
        Directory.Delete(_directory, recursive: true);
    }

    /// <summary>Records enqueued runs instead of executing them.</summary>
    internal sealed class RecordingJobClient : IRunJobClient
    {
        public List<long> Enqueued { get; } = [];

        public Task<string> EnqueueAsync(long runId, CancellationToken cancellationToken)
        {
            Enqueued.Add(runId);
            return Task.FromResult($"recorded-{runId}");
        }

        public Task<bool> CancelAsync(string jobId, CancellationToken cancellationToken) => Task.FromResult(false);
    }
}
