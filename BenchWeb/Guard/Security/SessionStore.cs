using System.Collections.Concurrent;
using System.Globalization;
using BenchWeb.Data;
using Microsoft.AspNetCore.Authentication;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Browser sessions kept server-side: every cookie sign-in starts one (its id travels inside the encrypted
/// cookie), and a cookie is honoured only while its session lasts. Signing out or disabling the user ends it in the
/// database — at once on this instance, which also remembers it in memory, and on other instances at their next
/// check (<see cref="CheckInterval"/>). A session ends
/// <see cref="SecurityOptions.SessionMaxHours"/> after its sign-in however active it is.</summary>
public sealed class SessionStore(IDbContextFactory<BenchDbContext> databases, IOptions<SecurityOptions> options, TimeProvider time)
{
    private const string IdKey = "benchweb.session";
    private const string StartedAtKey = "benchweb.session-started";

    /// <summary>How often a browser session is checked against its user (disabled, role changed).</summary>
    public static readonly TimeSpan CheckInterval = TimeSpan.FromMinutes(1);

    /// <summary>Sessions ended by this instance, until their absolute end: checked on every request, no database needed.</summary>
    private readonly ConcurrentDictionary<string, DateTimeOffset> _endedHere = new(StringComparer.Ordinal);

    /// <summary>The absolute lifetime of a session.</summary>
    public TimeSpan MaxLifetime => TimeSpan.FromHours(options.Value.SessionMaxHours);

    /// <summary>Starts a session for the user and names it in the cookie's properties.</summary>
    public async Task StartAsync(string userId, AuthenticationProperties properties, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(properties);
        var now = time.GetUtcNow();
        var session = new SessionEntity { Id = SecretToken.Create(""), UserId = userId, StartedAt = now, ExpiresAt = now + MaxLifetime };
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        // Sessions past their absolute end can never be honoured again: they go as new ones come.
        await db.Sessions.Where(s => s.ExpiresAt <= now).ExecuteDeleteAsync(cancellationToken);
        db.Sessions.Add(session);
        await db.SaveChangesAsync(cancellationToken);
        properties.SetString(IdKey, session.Id);
        properties.SetString(StartedAtKey, now.ToString("O", CultureInfo.InvariantCulture));
    }

    /// <summary>The session a cookie names and when it started; null for a cookie from before sessions were kept.</summary>
    public static (string Id, DateTimeOffset StartedAt)? Of(AuthenticationProperties? properties) =>
        properties?.GetString(IdKey) is { } id
        && DateTimeOffset.TryParse(properties.GetString(StartedAtKey), CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind, out var started)
            ? (id, started)
            : null;

    /// <summary>Whether a cookie's session may be honoured without asking the database: not ended on this instance and
    /// not past its absolute end.</summary>
    public bool MayLast((string Id, DateTimeOffset StartedAt) session) =>
        !_endedHere.ContainsKey(session.Id) && time.GetUtcNow() < session.StartedAt + MaxLifetime;

    /// <summary>Whether the session is stored, not ended, and before its absolute end.</summary>
    public async Task<bool> IsActiveAsync(string id, CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow();
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var session = await db.Sessions.AsNoTracking().SingleOrDefaultAsync(s => s.Id == id, cancellationToken);
        return session is { EndedAt: null } && session.ExpiresAt > now;
    }

    /// <summary>Ends one session (signing out): a saved copy of its cookie is refused from now on.</summary>
    public async Task EndAsync(string id, CancellationToken cancellationToken)
    {
        RememberEnded([id]);
        var now = time.GetUtcNow();
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        await db.Sessions.Where(s => s.Id == id && s.EndedAt == null).ExecuteUpdateAsync(s => s.SetProperty(x => x.EndedAt, now), cancellationToken);
    }

    /// <summary>Ends every session of a user (an administrator disabled them).</summary>
    public async Task EndAllAsync(string userId, CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow();
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        RememberEnded(await db.Sessions.Where(s => s.UserId == userId && s.EndedAt == null).Select(s => s.Id).ToListAsync(cancellationToken));
        await db.Sessions.Where(s => s.UserId == userId && s.EndedAt == null).ExecuteUpdateAsync(s => s.SetProperty(x => x.EndedAt, now), cancellationToken);
    }

    private void RememberEnded(IEnumerable<string> ids)
    {
        var now = time.GetUtcNow();
        // Kept until no cookie of theirs could be honoured anyway, so the set stays as small as the live sessions.
        foreach (var (stale, _) in _endedHere.Where(e => e.Value <= now))
        {
            _endedHere.TryRemove(stale, out _);
        }

        foreach (var id in ids)
        {
            _endedHere[id] = now + MaxLifetime;
        }
    }
}
