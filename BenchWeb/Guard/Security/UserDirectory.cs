using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Guard.Security;

/// <summary>Who may sign in and with which role: users, one-time invitations for local users, and personal API
/// tokens. Tokens and invitation links are kept as hashes only. What an admin or a user changes here is recorded in
/// the audit log.</summary>
public sealed class UserDirectory(IDbContextFactory<BenchDbContext> databases, AuditLog audit, SessionStore sessions, TimeProvider time)
{
    /// <summary>The installation's own admin, signed in with its one-time link (<see cref="LocalAdminLink"/>).</summary>
    public const string LocalAdminId = "local:ADMIN";
    public const string ApiTokenPrefix = "bw_";
    public const string InvitationPrefix = "bwi_";
    public const int MaxNameLength = 200;
    public const int MaxTokenNameLength = 100;
    public const int MaxTokenDays = 366;

    public static readonly TimeSpan InvitationLifetime = TimeSpan.FromDays(7);

    /// <summary>How often a used token's last-use time is written, at most.</summary>
    private static readonly TimeSpan LastUseResolution = TimeSpan.FromMinutes(1);

    /// <summary>Records a sign-in. A provider's user takes the role the provider's claims give now; a local user
    /// keeps the role an admin set. Returns the stored user (which may be disabled).</summary>
    public async Task<UserEntity> SignedInAsync(string id, string name, string role, string source, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow();
        var user = await db.Users.SingleOrDefaultAsync(u => u.Id == id, cancellationToken);
        if (user is null)
        {
            user = new UserEntity { Id = id, Name = Truncate(name, MaxNameLength), Role = role, Source = source, CreatedAt = now };
            db.Users.Add(user);
        }
        else if (source != SignInSources.Local)
        {
            user.Name = Truncate(name, MaxNameLength);
            user.Role = role;
        }

        // App Service authentication signs in every request: the time is written once a minute at most.
        if (user.LastSignInAt is not { } last || now - last >= LastUseResolution)
        {
            user.LastSignInAt = now;
        }

        if (db.ChangeTracker.HasChanges())
        {
            await db.SaveChangesAsync(cancellationToken);
        }

        return user;
    }

    public async Task<UserEntity?> FindAsync(string id, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Users.AsNoTracking().SingleOrDefaultAsync(u => u.Id == id, cancellationToken);
    }

    public async Task<IReadOnlyList<UserEntity>> UsersAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Users.AsNoTracking().OrderBy(u => u.Name).ThenBy(u => u.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Sets a local user's role (a provider's users get theirs from the provider). False when there is no
    /// such local user, or it is the installation's admin.</summary>
    public async Task<bool> SetRoleAsync(string id, string role, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(BenchWebRoles.Parse(role), nameof(role));
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (id == LocalAdminId || await db.Users.SingleOrDefaultAsync(u => u.Id == id && u.Source == SignInSources.Local, cancellationToken) is not { } user)
        {
            return false;
        }

        var before = user.Role;
        user.Role = BenchWebRoles.Parse(role)!;
        if (before != user.Role)
        {
            audit.Append(db, actor, AuditActions.UserRoleChanged, Subject(user), $"{before} → {user.Role}");
        }

        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>Disables or enables a user: a disabled user's sessions end at once on this instance (within a minute on
    /// the others), and their tokens stop working. The installation's admin cannot be disabled.</summary>
    public async Task<bool> SetDisabledAsync(string id, bool disabled, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (id == LocalAdminId || await db.Users.SingleOrDefaultAsync(u => u.Id == id, cancellationToken) is not { } user)
        {
            return false;
        }

        if (user.Disabled != disabled)
        {
            user.Disabled = disabled;
            audit.Append(db, actor, disabled ? AuditActions.UserDisabled : AuditActions.UserEnabled, Subject(user), null);
        }

        await db.SaveChangesAsync(cancellationToken);
        if (disabled)
        {
            await sessions.EndAllAsync(id, cancellationToken);
        }

        return true;
    }

    /// <summary>A one-time sign-in link's token for a new local user, valid for <see cref="InvitationLifetime"/>.</summary>
    /// <exception cref="ArgumentException">The name is empty, too long or taken, or the role is not a role.</exception>
    public async Task<string> InviteAsync(string name, string role, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        name = name?.Trim() ?? "";
        var parsed = BenchWebRoles.Parse(role) ?? throw new ArgumentException($"Not a role: choose {string.Join(", ", BenchWebRoles.All)}.", nameof(role));
        if (name.Length > MaxNameLength || PlainText.IsBlank(name))
        {
            throw new ArgumentException($"Give a name of 1 to {MaxNameLength} characters, not only invisible ones.", nameof(name));
        }

        if (PlainText.Check(name) is { } unprintable)
        {
            throw new ArgumentException(unprintable, nameof(name));
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var id = LocalId(name);
        if (id == LocalAdminId || await db.Users.AnyAsync(u => u.Id == id, cancellationToken))
        {
            throw new ArgumentException($"There is a user named '{name}' already.", nameof(name));
        }

        var token = SecretToken.Create(InvitationPrefix);
        var now = time.GetUtcNow();
        db.Invitations.Add(new InvitationEntity
        {
            Name = name,
            Role = parsed,
            TokenHash = SecretToken.Hash(token),
            CreatedBy = actor.Name,
            CreatedAt = now,
            ExpiresAt = now + InvitationLifetime,
        });
        audit.Append(db, actor, AuditActions.UserInvited, $"user {id} “{name}”", $"as {parsed}; a one-time link valid for {InvitationLifetime.TotalDays:N0} days");
        await db.SaveChangesAsync(cancellationToken);
        return token;
    }

    public async Task<IReadOnlyList<InvitationEntity>> OpenInvitationsAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow();
        // The administrator's own link (printed on the console) is not an invitation to withdraw here.
        var open = await db.Invitations.AsNoTracking().Where(i => i.UsedAt == null && i.Name != LocalAdminLink.InvitationName).ToListAsync(cancellationToken);
        return [.. open.Where(i => i.ExpiresAt > now).OrderByDescending(i => i.CreatedAt)];
    }

    public async Task<bool> WithdrawInvitationAsync(long id, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Invitations.SingleOrDefaultAsync(i => i.Id == id && i.UsedAt == null, cancellationToken) is not { } invitation)
        {
            return false;
        }

        db.Invitations.Remove(invitation);
        audit.Append(db, actor, AuditActions.InvitationWithdrawn, $"user {LocalId(invitation.Name)} “{invitation.Name}”", $"the invitation as {invitation.Role}");
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>Uses an invitation: its user is created and returned; null when the token is unknown, used or expired.</summary>
    public async Task<UserEntity?> RedeemInvitationAsync(string token, CancellationToken cancellationToken)
    {
        if (!token.StartsWith(InvitationPrefix, StringComparison.Ordinal))
        {
            return null;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var hash = SecretToken.Hash(token);
        var now = time.GetUtcNow();
        var invitation = await db.Invitations.SingleOrDefaultAsync(i => i.TokenHash == hash, cancellationToken);
        if (invitation is null || invitation.UsedAt is not null || invitation.ExpiresAt <= now)
        {
            return null;
        }

        // One use only, even when two requests race: the conditional update decides.
        if (await db.Invitations.Where(i => i.Id == invitation.Id && i.UsedAt == null).ExecuteUpdateAsync(s => s.SetProperty(i => i.UsedAt, now), cancellationToken) != 1)
        {
            return null;
        }

        var id = LocalId(invitation.Name);
        if (await db.Users.AnyAsync(u => u.Id == id, cancellationToken))
        {
            return null;
        }

        var user = new UserEntity { Id = id, Name = invitation.Name, Role = invitation.Role, Source = SignInSources.Local, CreatedAt = now, LastSignInAt = now };
        db.Users.Add(user);
        await db.SaveChangesAsync(cancellationToken);
        return user;
    }

    /// <summary>Makes a personal API token acting with <paramref name="role"/>, which may not exceed the owner's.
    /// The token is returned once; only its hash is stored.</summary>
    /// <exception cref="ArgumentException">A bad name, role or lifetime.</exception>
    public async Task<(ApiTokenEntity Entity, string Token)> CreateTokenAsync(string userId, string ownerRole, string name, string role, int? days, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        name = name?.Trim() ?? "";
        if (name.Length > MaxTokenNameLength || PlainText.IsBlank(name))
        {
            throw new ArgumentException($"Give the token a name of 1 to {MaxTokenNameLength} characters, not only invisible ones.", nameof(name));
        }

        if (PlainText.Check(name) is { } unprintable)
        {
            throw new ArgumentException(unprintable, nameof(name));
        }

        var parsed = BenchWebRoles.Parse(role) ?? throw new ArgumentException($"Not a role: choose {string.Join(", ", BenchWebRoles.All)}.", nameof(role));
        if (BenchWebRoles.Rank(parsed) > BenchWebRoles.Rank(ownerRole))
        {
            throw new ArgumentException($"A token acts with your role at most ({ownerRole}).", nameof(role));
        }

        if (days is < 1 or > MaxTokenDays)
        {
            throw new ArgumentException($"Between 1 and {MaxTokenDays} days, or no expiry.", nameof(days));
        }

        var token = SecretToken.Create(ApiTokenPrefix);
        var now = time.GetUtcNow();
        var entity = new ApiTokenEntity
        {
            UserId = userId,
            Name = name,
            Role = parsed,
            Prefix = token[..(ApiTokenPrefix.Length + 6)],
            TokenHash = SecretToken.Hash(token),
            CreatedAt = now,
            ExpiresAt = days is { } d ? now.AddDays(d) : null,
        };
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        db.ApiTokens.Add(entity);
        await db.SaveChangesAsync(cancellationToken);
        audit.Append(db, actor, AuditActions.TokenCreated, TokenSubject(entity),
            $"for {userId}, acting as {parsed}, {(entity.ExpiresAt is { } expires ? $"expires {expires.UtcDateTime:yyyy-MM-dd} UTC" : "no expiry")}");
        await db.SaveChangesAsync(cancellationToken);
        return (entity, token);
    }

    /// <summary>A user's tokens, or everyone's (null), newest first; revoked ones included.</summary>
    public async Task<IReadOnlyList<ApiTokenEntity>> TokensAsync(string? userId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var tokens = db.ApiTokens.AsNoTracking();
        if (userId is not null)
        {
            tokens = tokens.Where(t => t.UserId == userId);
        }

        return await tokens.OrderByDescending(t => t.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Revokes a token: the owner's own (<paramref name="userId"/>), or any (null, an admin).</summary>
    public async Task<bool> RevokeTokenAsync(long id, string? userId, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var token = await db.ApiTokens.SingleOrDefaultAsync(t => t.Id == id && t.RevokedAt == null && (userId == null || t.UserId == userId), cancellationToken);
        if (token is null)
        {
            return false;
        }

        token.RevokedAt = time.GetUtcNow();
        audit.Append(db, actor, AuditActions.TokenRevoked, TokenSubject(token), $"of {token.UserId}");
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>The user and role a presented API token acts as; null when it is unknown, revoked or expired, or its
    /// owner is disabled or has no role left.</summary>
    public async Task<(UserEntity User, string Role, ApiTokenEntity Token)?> AuthenticateTokenAsync(string token, CancellationToken cancellationToken)
    {
        if (!token.StartsWith(ApiTokenPrefix, StringComparison.Ordinal) || token.Length > 100)
        {
            return null;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var hash = SecretToken.Hash(token);
        var now = time.GetUtcNow();
        var stored = await db.ApiTokens.SingleOrDefaultAsync(t => t.TokenHash == hash, cancellationToken);
        if (stored is null || stored.RevokedAt is not null || stored.ExpiresAt <= now)
        {
            return null;
        }

        var user = await db.Users.AsNoTracking().SingleOrDefaultAsync(u => u.Id == stored.UserId, cancellationToken);
        if (user is null || user.Disabled || BenchWebRoles.Parse(user.Role) is not { } ownerRole)
        {
            return null;
        }

        if (stored.LastUsedAt is null || now - stored.LastUsedAt >= LastUseResolution)
        {
            stored.LastUsedAt = now;
            await db.SaveChangesAsync(cancellationToken);
        }

        return (user, BenchWebRoles.Lowest(stored.Role, ownerRole), stored);
    }

    private static string Subject(UserEntity user) => $"user {user.Id} “{user.Name}”";

    private static string TokenSubject(ApiTokenEntity token) => $"token #{token.Id} “{token.Name}”";

    /// <summary>The id of the local user of this name.</summary>
    public static string LocalId(string name) => "local:" + name.Trim().ToUpperInvariant();

    private static string Truncate(string value, int length) => value.Length <= length ? value : value[..length];
}
