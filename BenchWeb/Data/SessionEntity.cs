namespace BenchWeb.Data;

/// <summary>A browser session (a sign-in's cookie), kept server-side so that signing out, a disabled user and the
/// absolute lifetime end it whatever copy of the cookie is replayed. The cookie names it by <see cref="Id"/>.</summary>
public sealed class SessionEntity
{
    public const int MaxIdLength = 64;

    /// <summary>32 random bytes, URL-safe; carried inside the encrypted cookie.</summary>
    public required string Id { get; set; }

    public required string UserId { get; set; }

    public DateTimeOffset StartedAt { get; set; }

    /// <summary>The absolute end, however active the session is (<see cref="Guard.Security.SecurityOptions.SessionMaxHours"/>).</summary>
    public DateTimeOffset ExpiresAt { get; set; }

    /// <summary>When it was signed out or ended by an administrator; null while it lasts.</summary>
    public DateTimeOffset? EndedAt { get; set; }
}
