using BenchWeb.Data;
using BenchWeb.Guard.Security;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Hosting;

/// <summary><c>BenchWeb admin-link</c> (<c>dotnet BenchWeb.dll admin-link</c>, <c>dotnet run --project BenchWeb --
/// admin-link</c>): prints a fresh one-time administrator link to the console and exits, for an installation whose
/// administrator is signed out (the start prints one only while no administrator exists). It reads the same settings
/// as the dashboard (its database, its <c>urls</c>) and works while the dashboard runs: the link's hash is stored in the
/// database, and every earlier link stops working. Exit code 0 when printed, 2 when local sign-in is off.</summary>
public static class AdminLinkCommand
{
    public const int ExitPrinted = 0;
    public const int ExitLocalSignInOff = 2;

    /// <param name="args">The dashboard's arguments after <c>admin-link</c> (e.g. <c>--urls</c>, settings).</param>
    /// <param name="output">Where the link goes: the console, never a log.</param>
    /// <param name="error">Where a refusal goes.</param>
    /// <param name="configure">Changes to the app's settings (tests).</param>
    /// <param name="cancellationToken">Cancels the command.</param>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, Action<WebApplicationBuilder>? configure, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        await using var app = BenchWebApplication.Create(args, builder =>
        {
            // Only the link on the console: the database's start-up messages stay out of it.
            builder.Logging.ClearProviders();
            configure?.Invoke(builder);
        });
        if (app.Services.GetRequiredService<IOptions<SecurityOptions>>().Value.SignIn != SignInMode.Local)
        {
            await error.WriteLineAsync("Local sign-in is off (BenchWeb:Security:SignIn is OpenIdConnect): administrators sign in with the identity provider.");
            return ExitLocalSignInOff;
        }

        // A fresh install may not have started the dashboard yet.
        await using (var db = await app.Services.GetRequiredService<IDbContextFactory<BenchDbContext>>().CreateDbContextAsync(cancellationToken))
        {
            await db.Database.MigrateAsync(cancellationToken);
        }

        var links = app.Services.GetRequiredService<LocalAdminLink>();
        LocalAdminLink.Print(output, await links.IssueAsync(links.BaseAddress(), replacePrevious: true, cancellationToken));
        return ExitPrinted;
    }
}
