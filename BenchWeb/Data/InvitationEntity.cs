namespace BenchWeb.Data;

/// <summary>A one-time sign-in link an admin made for a new local user. Only the token's hash is kept.</summary>
public sealed class InvitationEntity
{
    public long Id { get; set; }

    public required string Name { get; set; }

    public required string Role { get; set; }

    /// <summary>SHA-256 of the token, hex.</summary>
    public required string TokenHash { get; set; }

    public required string CreatedBy { get; set; }

    public DateTimeOffset CreatedAt { get; set; }

    public DateTimeOffset ExpiresAt { get; set; }

    public DateTimeOffset? UsedAt { get; set; }
}
