using BenchWeb.Data;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Secrets;

/// <summary>Account keys and connection strings entered in the dashboard. Stored encrypted (ASP.NET Core Data
/// Protection); readable only by a run that needs them, never by a page. A name with no stored value falls
/// back to the environment variable of that name, as in headless runs.</summary>
public sealed class SecretStore(IDbContextFactory<BenchDbContext> databases, IDataProtectionProvider protection, TimeProvider time)
{
    private readonly IDataProtector _protector = protection.CreateProtector("BenchWeb.Secrets.v1");

    /// <summary>The name under which a profile's stored secret lives, e.g. <c>profile-3-cosmos-key</c>.</summary>
    public static string NameFor(long profileId, string purpose) => $"profile-{profileId}-{purpose}";

    public async Task SetAsync(string name, string value, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(value);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var secret = await db.Secrets.FindAsync([name], cancellationToken);
        if (secret is null)
        {
            secret = new StoredSecret { Name = name, ProtectedValue = "" };
            db.Secrets.Add(secret);
        }

        secret.ProtectedValue = _protector.Protect(value.Trim());
        secret.UpdatedAt = time.GetUtcNow();
        await db.SaveChangesAsync(cancellationToken);
    }

    public async Task RemoveAsync(string name, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Secrets.FindAsync([name], cancellationToken) is { } secret)
        {
            db.Secrets.Remove(secret);
            await db.SaveChangesAsync(cancellationToken);
        }
    }

    /// <summary>Whether a value is stored under this name (the only thing a page may know).</summary>
    public async Task<bool> IsStoredAsync(string? name, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            return false;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Secrets.AnyAsync(s => s.Name == name, cancellationToken);
    }

    /// <summary>All stored values, decrypted, for one run's target to resolve its secrets from.</summary>
    internal async Task<Func<string, string?>> CreateResolverAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var stored = await db.Secrets.AsNoTracking().ToDictionaryAsync(s => s.Name, s => s.ProtectedValue, cancellationToken);
        return name => stored.TryGetValue(name, out var value) ? _protector.Unprotect(value) : Environment.GetEnvironmentVariable(name);
    }
}
