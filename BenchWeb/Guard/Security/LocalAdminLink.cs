using BenchWeb.Configuration;
using BenchWeb.Data;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Local sign-in's way in for the administrator, like a notebook server's token: a one-time link that signs
/// its user in as the installation's admin (valid 24 hours, until used; no default password). It is printed at start
/// only while no administrator exists (a fresh install), and by the <c>admin-link</c> command
/// (<c>AdminLinkCommand</c>, in the composition root) whenever an operator asks. It is written to the console itself — standard output —
/// never through the logging providers, which may ship logs elsewhere. On Azure App Service standard output is the log
/// stream and <c>/home/LogFiles</c>, so there the start prints how to get a link instead of one. Only the token's hash
/// is kept, in the database, so a link the command prints works in the running server. The command's link replaces every
/// earlier one, and so does a start in embedded mode; in shared mode each instance of a fresh fleet prints its own.</summary>
public sealed class LocalAdminLink(
    IServer? server,
    IDbContextFactory<BenchDbContext> databases,
    IConfiguration configuration,
    IOptions<BenchWebOptions> options,
    TimeProvider time,
    TextWriter console) : IHostedLifecycleService
{
    public const string TokenPrefix = "bwa_";
    public const string Path = "/signin/local";

    /// <summary>The command that prints a fresh link: <c>dotnet BenchWeb.dll admin-link</c>.</summary>
    public const string Command = "admin-link";

    /// <summary>App Service sets this variable in every app it runs.</summary>
    public const string AppServiceVariable = "WEBSITE_INSTANCE_ID";

    public static readonly TimeSpan Lifetime = TimeSpan.FromHours(24);

    /// <summary>The stored link's name among the invitations: the one whose user is the installation's admin
    /// (<see cref="UserDirectory.LocalAdminId"/>), a name no invitation may take.</summary>
    internal const string InvitationName = "admin";

    private const string IssuedBy = "console";

    /// <summary>The last link this process issued.</summary>
    public Uri? Link { get; private set; }

    /// <summary>The service as the app registers it, writing to <paramref name="console"/>.</summary>
    public static LocalAdminLink Create(IServiceProvider services, TextWriter console) =>
        new(services.GetService<IServer>(), services.GetRequiredService<IDbContextFactory<BenchDbContext>>(), services.GetRequiredService<IConfiguration>(),
            services.GetRequiredService<IOptions<BenchWebOptions>>(), services.GetRequiredService<TimeProvider>(), console);

    public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Once the server listens (its addresses are known) and the database is up to date: a link when no
    /// administrator exists yet.</summary>
    public async Task StartedAsync(CancellationToken cancellationToken)
    {
        if (await AdminExistsAsync(cancellationToken))
        {
            console.WriteLine($"BenchWeb: an administrator exists, so no sign-in link is printed. For one, run: dotnet BenchWeb.dll {Command}");
        }
        else if (configuration[AppServiceVariable] is { Length: > 0 })
        {
            // Here standard output is the log stream, kept in /home/LogFiles: a link there would outlive its reader.
            console.WriteLine($"BenchWeb: no administrator yet. Open an SSH session to the app and run: dotnet BenchWeb.dll {Command}");
        }
        else
        {
            // The instances of a fresh fleet start together: each one's link stays usable.
            Print(console, await IssueAsync(BaseAddress(), replacePrevious: options.Value.Mode != DeploymentMode.Shared, cancellationToken));
        }

        console.Flush();
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Whether an enabled user has the Admin role.</summary>
    public async Task<bool> AdminExistsAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Users.AnyAsync(u => u.Role == BenchWebRoles.Admin && !u.Disabled, cancellationToken);
    }

    /// <summary>Makes a new link on <paramref name="baseAddress"/>, not printed.</summary>
    /// <param name="baseAddress">Where a browser reaches the app.</param>
    /// <param name="replacePrevious">Whether the links issued before stop working.</param>
    /// <param name="cancellationToken">Cancels issuing.</param>
    public async Task<Uri> IssueAsync(Uri baseAddress, bool replacePrevious, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(baseAddress);
        var token = SecretToken.Create(TokenPrefix);
        var now = time.GetUtcNow();
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (replacePrevious)
        {
            await db.Invitations.Where(i => i.Name == InvitationName && i.UsedAt == null).ExecuteDeleteAsync(cancellationToken);
        }

        db.Invitations.Add(new InvitationEntity
        {
            Name = InvitationName,
            Role = BenchWebRoles.Admin,
            TokenHash = SecretToken.Hash(token),
            CreatedBy = IssuedBy,
            CreatedAt = now,
            ExpiresAt = now + Lifetime,
        });
        await db.SaveChangesAsync(cancellationToken);
        Link = new Uri(baseAddress, $"{Path.TrimStart('/')}?token={token}");
        return Link;
    }

    /// <summary>Writes the link, and its token alone for the sign-in page's form (behind a proxy the address differs).</summary>
    public static void Print(TextWriter console, Uri link)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(link);
        console.WriteLine();
        console.WriteLine($"BenchWeb: sign in as the administrator with this one-time link (valid {Lifetime.TotalHours:N0} hours, until used):");
        console.WriteLine($"  {link}");
        console.WriteLine("  (or paste the token after 'token=' into the sign-in page's form)");
        console.WriteLine();
        console.Flush();
    }

    /// <summary>Uses a link's token: true once, for a link not replaced since, before it expires.</summary>
    public async Task<bool> TryRedeemAsync(string? token, CancellationToken cancellationToken)
    {
        if (token is null || !token.StartsWith(TokenPrefix, StringComparison.Ordinal))
        {
            return false;
        }

        var hash = SecretToken.Hash(token);
        var now = time.GetUtcNow();
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var link = await db.Invitations.AsNoTracking().SingleOrDefaultAsync(i => i.TokenHash == hash && i.Name == InvitationName, cancellationToken);
        if (link is null || link.UsedAt is not null || link.ExpiresAt <= now)
        {
            return false;
        }

        // One use only, even when two requests race: the conditional update decides.
        return await db.Invitations.Where(i => i.Id == link.Id && i.UsedAt == null).ExecuteUpdateAsync(s => s.SetProperty(i => i.UsedAt, now), cancellationToken) == 1;
    }

    /// <summary>Where a browser reaches the app: on App Service its site's https name, else the first address the server
    /// listens on (or the configured <c>urls</c>), a wildcard binding read as <c>localhost</c>.</summary>
    public Uri BaseAddress()
    {
        if (configuration["WEBSITE_HOSTNAME"] is { Length: > 0 } site)
        {
            return new Uri($"https://{site}/");
        }

        var address = server?.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault()
            ?? configuration["urls"]?.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault()
            ?? "http://localhost:5000";
        // A wildcard binding is not an address a browser can open.
        address = address.Replace("://0.0.0.0", "://localhost", StringComparison.Ordinal)
            .Replace("://[::]", "://localhost", StringComparison.Ordinal)
            .Replace("://+", "://localhost", StringComparison.Ordinal)
            .Replace("://*", "://localhost", StringComparison.Ordinal);
        return new Uri(address.TrimEnd('/') + "/");
    }
}
