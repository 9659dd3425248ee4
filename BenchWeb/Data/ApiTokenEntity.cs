namespace BenchWeb.Data;

/// <summary>A personal API token for pipelines calling the HTTP API. Shown once when made; only its hash is kept.</summary>
public sealed class ApiTokenEntity
{
    public long Id { get; set; }

    public required string UserId { get; set; }

    /// <summary>What the owner called it, e.g. "nightly pipeline".</summary>
    public required string Name { get; set; }

    /// <summary>The role it acts with: at most its owner's.</summary>
    public required string Role { get; set; }

    /// <summary>The token's first characters, to recognise it in a list.</summary>
    public required string Prefix { get; set; }

    /// <summary>SHA-256 of the token, hex.</summary>
    public required string TokenHash { get; set; }

    public DateTimeOffset CreatedAt { get; set; }

    public DateTimeOffset? ExpiresAt { get; set; }

    public DateTimeOffset? LastUsedAt { get; set; }

    public DateTimeOffset? RevokedAt { get; set; }
}
