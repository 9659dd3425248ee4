namespace BenchWeb.Data;

/// <summary>Someone who has signed in: a local user (invited, or the installation's admin) or one from the identity
/// provider (OpenID Connect, App Service authentication), whose role the provider's claims decide at each sign-in.</summary>
public sealed class UserEntity
{
    /// <summary>Stable id: <c>local:&lt;name&gt;</c>, <c>oidc:&lt;issuer&gt;|&lt;subject&gt;</c>, <c>easyauth:&lt;id&gt;</c>.</summary>
    public required string Id { get; set; }

    public required string Name { get; set; }

    /// <summary>Viewer, Runner or Admin: set by an admin for local users, the last role the provider gave otherwise.</summary>
    public required string Role { get; set; }

    /// <summary>Local, OpenIdConnect or EasyAuth.</summary>
    public required string Source { get; set; }

    /// <summary>A disabled user's sessions and API tokens stop working within a minute.</summary>
    public bool Disabled { get; set; }

    public DateTimeOffset CreatedAt { get; set; }

    public DateTimeOffset? LastSignInAt { get; set; }
}
