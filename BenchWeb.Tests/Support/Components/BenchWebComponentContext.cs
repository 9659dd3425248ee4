using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Fleet;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Secrets;
using BenchWeb.Guard.Security;
using BenchWeb.Hosting;
using BenchWeb.History;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using BenchWeb.Live;
using BenchWeb.Profiles;
using BenchWeb.Transfer;
using BenchWeb.Uploads;
using Bunit;
using Bunit.TestDoubles;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Support.Components;

/// <summary>A bUnit context with the app's services: a real SQLite file of its own (migrated), the real secret
/// store with an in-memory Data Protection key, and strict JS interop, so a JS call nobody set up fails the
/// test. Runs are only enqueued, into <see cref="Jobs"/>. Tests that need only the services use it too.</summary>
internal sealed class BenchWebComponentContext : BunitContext
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "benchweb-components-" + Guid.NewGuid().ToString("N"));
    private int _arrivals;
    private bool _deleted;

    // bUnit gives a wait one second by default; a page's first load compiles its EF Core query, on two cores shared
    // with the tests that run servers and benchmarks in parallel.
    static BenchWebComponentContext() => DefaultWaitTimeout = TimeSpan.FromSeconds(15);

    /// <summary>The address the pages' circuit "connected from", as the audit log should record it.</summary>
    public static readonly System.Net.IPAddress ClientAddress = System.Net.IPAddress.Parse("203.0.113.7");

    public BenchWebComponentContext(IRunJobClient? jobs = null, bool allowLoopbackEndpoints = true)
    {
        Directory.CreateDirectory(_directory);
        JSInterop.Mode = JSRuntimeMode.Strict;
        Services.AddSignalR();
        Services.AddDbContextFactory<BenchDbContext>(db => db.UseSqlite($"Data Source={Path.Combine(_directory, "benchweb.db")}").AddInterceptors(Commands));
        Services.AddSingleton<IDataProtectionProvider>(new EphemeralDataProtectionProvider());
        Services.AddSingleton(TimeProvider.System);
        Services.AddSingleton<AuditLog>();
        Services.AddSingleton(Options.Create(new InstallationLimitsOptions()));
        Services.AddSingleton(Options.Create(new SecurityOptions { AllowLoopbackEndpoints = allowLoopbackEndpoints }));
        Services.AddSingleton<InstallationSettingsService>();
        Services.AddSingleton<KillSwitch>();
        Services.AddSingleton<EndpointAllowList>();
        Services.AddScoped(_ => new CircuitClientAddress { RemoteIp = ClientAddress });
        Services.AddSingleton<SecretStore>();
        // Uploaded files go to the context's own folder, beside its database.
        Services.AddSingleton(Options.Create(new BenchWebOptions { DataDirectory = _directory }));
        Services.AddLogging();
        Services.AddSingleton<CsvUploadStore>();
        Services.AddSingleton<ProfileService>();
        Services.AddSingleton<ExecutingRuns>();
        Services.AddSingleton<BenchWeb.Fleet.AgentDirectory>();
        Services.AddSingleton<DistributedRuns>();
        Services.AddSingleton<RunService>();
        Services.AddSingleton<BenchWeb.Sweeps.SweepService>();
        Services.AddSingleton<RunTransfer>();
        Services.AddSingleton<BenchWeb.Live.LiveFeed>();
        Services.AddReadSides();
        Services.AddSingleton<RunUpdatePublisher>();
        Services.AddSingleton<IRunJobClient>(jobs ?? Jobs);
        Services.AddSingleton<SessionStore>();
        Services.AddSingleton<UserDirectory>();
        Services.AddScoped<CurrentUser>();
        Authorization = this.AddAuthorization();
        SignInAs(BenchWebRoles.Admin);

        // The pages run in the interactive server render mode; the renderer (and so the service provider) is
        // created here, after the last registration.
        SetRendererInfo(new RendererInfo("Server", isInteractive: true));
        using var db = Databases.CreateDbContext();
        db.Database.Migrate();
    }

    public RecordingRunJobClient Jobs { get; } = new();

    /// <summary>The queries the app's services and pages send to the database (<see cref="CommandLog.Clear"/> before the act).</summary>
    public CommandLog Commands { get; } = new();

    /// <summary>Who the pages see as signed in (an admin unless a test says otherwise).</summary>
    public BunitAuthorizationContext Authorization { get; }

    /// <summary>Signs the pages' user in with this role, as the app's sign-in would: a role claim for it and every
    /// role it includes.</summary>
    public void SignInAs(string role)
    {
        Authorization.SetAuthorized($"test {role}");
        Authorization.SetRoles([.. BenchWebRoles.Including(role)]);
        Authorization.SetClaims(
            new System.Security.Claims.Claim(BenchWebPrincipal.RoleClaim, role),
            new System.Security.Claims.Claim(BenchWebPrincipal.UserIdClaim, UserDirectory.LocalId($"test {role}")),
            new System.Security.Claims.Claim(BenchWebPrincipal.SourceClaim, SignInSources.Local));
    }

    public IDbContextFactory<BenchDbContext> Databases => Services.GetRequiredService<IDbContextFactory<BenchDbContext>>();

    public BunitNavigationManager Navigation => Services.GetRequiredService<BunitNavigationManager>();

    /// <summary>Where the pages navigated since the test arrived (<see cref="StartAt"/>), oldest first: bUnit's
    /// history lists the latest first and includes the test's own arrival.</summary>
    public IReadOnlyList<string> NavigatedTo => [.. Navigation.History.Reverse().Skip(_arrivals).Select(h => h.Uri)];

    /// <summary>Arrives at this address (relative to the app's base), as a user opening a link would.</summary>
    public void StartAt(string relativeUri)
    {
        Navigation.NavigateTo(relativeUri);
        _arrivals = Navigation.History.Count;
    }

    protected override async ValueTask DisposeAsyncCore()
    {
        await base.DisposeAsyncCore();
        DeleteDatabase();
    }

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        if (disposing)
        {
            DeleteDatabase();
        }
    }

    private void DeleteDatabase()
    {
        if (_deleted)
        {
            return;
        }

        _deleted = true;
        // Pooled connections keep the database file open.
        SqliteConnection.ClearAllPools();
        Directory.Delete(_directory, recursive: true);
    }
}
