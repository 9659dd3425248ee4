using System.Security.Cryptography;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

namespace BenchWeb.Security;

/// <summary>Local sign-in's way in for the first admin, like a notebook server's token: at every start the console
/// (not the log, which may be shipped elsewhere) gets a one-time link that signs its user in as the installation's
/// admin. Whoever started the process can read it; there is no default password. The link works once, for 24 hours.</summary>
public sealed class LocalAdminLink(IServer server, IHostApplicationLifetime lifetime, TimeProvider time, TextWriter console) : IHostedService
{
    public const string TokenPrefix = "bwa_";
    public const string Path = "/signin/local";
    public static readonly TimeSpan Lifetime = TimeSpan.FromHours(24);

    private readonly Lock _gate = new();
    private byte[]? _hash;
    private DateTimeOffset _expiresAt;

    /// <summary>The last link printed (for the process that printed it).</summary>
    public Uri? Link { get; private set; }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        // The addresses are known once the server listens.
        lifetime.ApplicationStarted.Register(Issue);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Makes a new link (the previous one stops working) and prints it.</summary>
    public void Issue()
    {
        var token = SecretToken.Create(TokenPrefix);
        lock (_gate)
        {
            _hash = SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(token));
            _expiresAt = time.GetUtcNow() + Lifetime;
        }

        Link = new Uri(BaseAddress(), $"{Path.TrimStart('/')}?token={token}");
        console.WriteLine();
        console.WriteLine($"BenchWeb: sign in as the administrator with this one-time link (valid {Lifetime.TotalHours:N0} hours, until used):");
        console.WriteLine($"  {Link}");
        console.WriteLine();
        console.Flush();
    }

    /// <summary>Uses the link's token: true once, for the token printed last, before it expires.</summary>
    public bool TryRedeem(string? token)
    {
        if (token is null || !token.StartsWith(TokenPrefix, StringComparison.Ordinal))
        {
            return false;
        }

        var presented = SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(token));
        lock (_gate)
        {
            if (_hash is null || time.GetUtcNow() >= _expiresAt || !CryptographicOperations.FixedTimeEquals(_hash, presented))
            {
                return false;
            }

            _hash = null;
            return true;
        }
    }

    private Uri BaseAddress()
    {
        var address = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault() ?? "http://localhost";
        // A wildcard binding is not an address a browser can open.
        address = address.Replace("://0.0.0.0", "://localhost", StringComparison.Ordinal)
            .Replace("://[::]", "://localhost", StringComparison.Ordinal)
            .Replace("://+", "://localhost", StringComparison.Ordinal)
            .Replace("://*", "://localhost", StringComparison.Ordinal);
        return new Uri(address.TrimEnd('/') + "/");
    }
}
