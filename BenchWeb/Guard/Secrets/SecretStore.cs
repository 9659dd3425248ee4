using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Secrets;

/// <summary>Account keys and connection strings entered in the dashboard. Stored encrypted (ASP.NET Core Data
/// Protection); readable only by a run of the profile they belong to, never by a page. A name with no stored
/// value falls back to the environment variable of that name, as in headless runs — but only as the installation allows
/// (<see cref="EnvironmentRefusal"/>): for one kind and setting, bound to one server, so a profile cannot send any
/// variable of the host to an endpoint of its choosing. Storing and removing are audited (the name and, for a
/// connection string, its endpoint host; never the value).</summary>
public sealed class SecretStore(IDbContextFactory<BenchDbContext> databases, IDataProtectionProvider protection, TimeProvider time, IOptions<BenchWebOptions> options, AuditLog audit)
{
    private readonly IDataProtector _protector = protection.CreateProtector("BenchWeb.Secrets.v1");

    /// <summary>The name under which a profile's stored secret lives, e.g. <c>profile-3-cosmos-key</c>.</summary>
    public static string NameFor(long profileId, string purpose) => $"profile-{profileId}-{purpose}";

    /// <summary>Stores a secret, encrypted (recorded in the audit log).</summary>
    /// <param name="name">The store name (<see cref="NameFor"/>).</param>
    /// <param name="value">The secret.</param>
    /// <param name="endpointOf">Where the value points (its target's <see cref="IServiceEndpoints.EndpointOfSecret"/>), kept beside
    /// it for the allow-list and the audit log; the value itself is never read again but by a run.</param>
    /// <param name="actor">Who stores it.</param>
    /// <param name="cancellationToken">Cancels the write.</param>
    public async Task SetAsync(string name, string value, Func<string, Uri?> endpointOf, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(value);
        ArgumentNullException.ThrowIfNull(endpointOf);
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var secret = await db.Secrets.FindAsync([name], cancellationToken);
        var replaced = secret is not null;
        if (secret is null)
        {
            secret = new StoredSecret { Name = name, ProtectedValue = "" };
            db.Secrets.Add(secret);
        }

        value = value.Trim();
        secret.ProtectedValue = _protector.Protect(value);
        secret.UpdatedAt = time.GetUtcNow();
        secret.Endpoint = endpointOf(value)?.ToString();
        var host = secret.Endpoint is { } endpoint ? EndpointAllowList.HostOf(new Uri(endpoint)) : null;
        audit.Append(db, actor, AuditActions.SecretStored, $"secret “{name}”", replaced ? "replaced the stored value" : "stored a new value", host);
        await db.SaveChangesAsync(cancellationToken);
    }

    /// <summary>Removes a stored secret (recorded in the audit log). False when none was stored under the name.</summary>
    public async Task<bool> RemoveAsync(string name, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Secrets.FindAsync([name], cancellationToken) is not { } secret)
        {
            return false;
        }

        db.Secrets.Remove(secret);
        audit.Append(db, actor, AuditActions.SecretRemoved, $"secret “{name}”", null, secret.Endpoint is { } endpoint ? EndpointAllowList.HostOf(new Uri(endpoint)) : null);
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>The endpoints of the secrets a plan's target reads that are stored for the profile (read when each was
    /// stored), by the secret's field path; a secret named from the environment is checked by the target when it connects.</summary>
    public async Task<IReadOnlyDictionary<string, Uri>> EndpointsAsync(RunPlan plan, long? profileId, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var endpoints = new Dictionary<string, Uri>(StringComparer.Ordinal);
        if (profileId is not { } id)
        {
            return endpoints;
        }

        foreach (var field in plan.Target.Kind.Module.Fields.Where(f => f.Input == TargetInput.Secret))
        {
            if (TargetSettings.Text(plan.Target, field.Path) is { } name && BelongsTo(name, id) && await EndpointAsync(name, cancellationToken) is { } endpoint)
            {
                endpoints[field.Path] = endpoint;
            }
        }

        return endpoints;
    }

    /// <summary>The endpoint of a stored secret (a connection string's), read when it was stored; null when none is stored
    /// under the name or it names no endpoint.</summary>
    public async Task<Uri?> EndpointAsync(string? name, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            return null;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var endpoint = await db.Secrets.AsNoTracking().Where(s => s.Name == name).Select(s => s.Endpoint).SingleOrDefaultAsync(cancellationToken);
        return endpoint is null ? null : new Uri(endpoint);
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

    /// <summary>Whether a plan's target may name this environment variable for this secret setting
    /// (<see cref="EnvironmentRefusal"/> says why not).</summary>
    public bool IsAllowedEnvironmentVariable(string name, TargetField field, TargetOptions target) => EnvironmentRefusal(name, field, target) is null;

    /// <summary>Why a plan's target may not name this environment variable for this secret setting, in words naming the
    /// variable (never its value); null when it may. A variable the installation lists
    /// (<see cref="BenchWebOptions.EnvironmentSecrets"/>) stands only for the kind and setting it was listed for, and only
    /// with the server it is bound to: the plan's own endpoint for a key, the value's endpoint for a connection string.
    /// Unlisted, a setting's own default (<c>TABLES_CONNECTION_STRING</c>) stands for that setting when the plan names no
    /// server of its own, as then the value names it; no other variable is read, so that no plan sends one service's key to
    /// another's host.</summary>
    public string? EnvironmentRefusal(string name, TargetField field, TargetOptions target) => EnvironmentCheck(name, field, target)?.Message;

    /// <summary>As <see cref="EnvironmentRefusal"/>, and whether the refusal is the installation's server binding (the
    /// variable may stand for the setting, but is bound to no server or to another): a profile saves with it, and cannot
    /// run until an administrator binds the variable to the plan's server.</summary>
    private (string Message, bool Binding)? EnvironmentCheck(string name, TargetField field, TargetOptions target)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(field);
        ArgumentNullException.ThrowIfNull(target);
        var module = target.Kind.Module;
        var endpoints = module as IServiceEndpoints;
        var planned = endpoints?.PlannedEndpoint(target)?.Endpoint;
        var label = $"{module.DisplayName}'s {field.Label.ToLowerInvariant()} ({field.Path})";
        if (options.Value.EnvironmentSecrets.TryGetValue(name, out var listed))
        {
            var kind = TargetRegistry.Parse(listed.Kind ?? "");
            if (kind != target.Kind || !string.Equals(listed.Setting, field.Path, StringComparison.OrdinalIgnoreCase))
            {
                var listedFor = TargetRegistry.IsKnown(kind) && kind.Module.FieldAt(listed.Setting ?? "") is { } own
                    ? $"{kind.Module.DisplayName}'s {own.Label.ToLowerInvariant()} ({own.Path})"
                    : "another setting";
                return ($"The environment secret {name} is listed for {listedFor}: it may not stand for {label}.", false);
            }

            // A key goes to the server the plan names; a connection string names its own.
            var server = planned ?? endpoints?.EndpointOfSecret(field, Environment.GetEnvironmentVariable(name) ?? "");
            var bound = EnvironmentSecretOptions.ServerOf(listed.Host);
            return server is not null && bound is not null && !IsServer(bound, server)
                ? ($"The environment secret {name} is bound to {listed.Host}: it is not sent to {server.Authority}.", true)
                : null;
        }

        if (string.Equals(name, TargetSettings.DefaultText(field.Path), StringComparison.Ordinal))
        {
            return planned is null ? null
                : ($"The environment secret {name} is bound to no server: an administrator lists it under {BenchWebOptions.SectionName}:{nameof(BenchWebOptions.EnvironmentSecrets)}:{name} with its Kind, Setting and Host before a plan may send it to {planned.Authority}.", true);
        }

        return ($"Paste the secret, or name an environment variable listed for {label}"
            + (AllowedEnvironmentVariables(field, target).ToList() is { Count: > 0 } allowed ? $": {string.Join(", ", allowed)}." : "; this installation lists none."), false);
    }

    /// <summary>The secret settings of the plan's target that apply and name neither a secret the profile has (stored or
    /// being typed, as <paramref name="hasSecret"/> says) nor an environment variable they may name: each refused on its
    /// field, in words that name the variable or list those it may name.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="hasSecret">Whether the profile has the secret the setting names (stored, or being typed).</param>
    /// <param name="binding">Only the refusals of the installation's server binding (true), only the others (false), or
    /// all (null, as a launch checks).</param>
    public IEnumerable<FieldError> CheckSecretNames(RunPlan plan, Func<TargetField, string, bool> hasSecret, bool? binding = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(hasSecret);
        foreach (var field in plan.Target.Kind.Module.Fields.Where(f => f.Input == TargetInput.Secret && (f.AppliesWhen?.Invoke(plan.Target) ?? true)))
        {
            var name = TargetSettings.Text(plan.Target, field.Path) ?? "";
            if (name.Length > 0 && !hasSecret(field, name) && EnvironmentCheck(name, field, plan.Target) is { } refused
                && (binding is null || binding == refused.Binding))
            {
                yield return new FieldError(field.Path, refused.Message);
            }
        }
    }

    /// <summary>The environment variables a secret setting of this target may name, for messages: its default when it may,
    /// then those the installation lists for it.</summary>
    public IEnumerable<string> AllowedEnvironmentVariables(TargetField field, TargetOptions target)
    {
        ArgumentNullException.ThrowIfNull(field);
        ArgumentNullException.ThrowIfNull(target);
        var listed = options.Value.EnvironmentSecrets
            .Where(e => TargetRegistry.Parse(e.Value.Kind ?? "") == target.Kind && string.Equals(e.Value.Setting, field.Path, StringComparison.OrdinalIgnoreCase))
            .Select(e => e.Key);
        var own = TargetSettings.DefaultText(field.Path) is { } name && (target.Kind.Module as IServiceEndpoints)?.PlannedEndpoint(target) is null ? [name] : Array.Empty<string>();
        return own.Concat(listed).Distinct(StringComparer.Ordinal);
    }

    // A bound host without a port stands for any port of it.
    private static bool IsServer(Uri bound, Uri server) =>
        string.Equals(bound.IdnHost, server.IdnHost, StringComparison.OrdinalIgnoreCase) && (bound.IsDefaultPort || bound.Port == server.Port);

    /// <summary>Whether a secret name belongs to this profile's stored secrets.</summary>
    public static bool BelongsTo(string name, long profileId) => name.StartsWith(NameFor(profileId, ""), StringComparison.Ordinal);

    /// <summary>The secrets one run may use: its own profile's stored values, decrypted, then the environment variables its
    /// plan's secret settings may name (<see cref="IsAllowedEnvironmentVariable"/>), each only for its setting.</summary>
    internal async Task<Func<string, string?>> CreateResolverAsync(long? profileId, RunPlan plan, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var environment = plan.Target.Kind.Module.Fields.Where(f => f.Input == TargetInput.Secret)
            .Select(f => (Name: TargetSettings.Text(plan.Target, f.Path), Field: f))
            .Where(s => s.Name is not null && IsAllowedEnvironmentVariable(s.Name, s.Field, plan.Target))
            .Select(s => s.Name!)
            .ToHashSet(StringComparer.Ordinal);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var prefix = profileId is { } id ? NameFor(id, "") : null;
        var stored = prefix is null
            ? []
            : await db.Secrets.AsNoTracking().Where(s => s.Name.StartsWith(prefix)).ToDictionaryAsync(s => s.Name, s => s.ProtectedValue, cancellationToken);
        return name => stored.TryGetValue(name, out var value) ? _protector.Unprotect(value)
            : environment.Contains(name) ? Environment.GetEnvironmentVariable(name)
            : null;
    }

    /// <summary>Copies one profile's stored secrets to another (a clone), renaming them; returns old → new names.</summary>
    public async Task<IReadOnlyDictionary<string, string>> CopyAsync(long fromProfileId, long toProfileId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var prefix = NameFor(fromProfileId, "");
        var renamed = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var secret in await db.Secrets.AsNoTracking().Where(s => s.Name.StartsWith(prefix)).ToListAsync(cancellationToken))
        {
            var name = NameFor(toProfileId, secret.Name[prefix.Length..]);
            db.Secrets.Add(new StoredSecret { Name = name, ProtectedValue = secret.ProtectedValue, UpdatedAt = time.GetUtcNow(), Endpoint = secret.Endpoint });
            renamed[secret.Name] = name;
        }

        await db.SaveChangesAsync(cancellationToken);
        return renamed;
    }
}
