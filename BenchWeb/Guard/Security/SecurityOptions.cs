using System.ComponentModel.DataAnnotations;

namespace BenchWeb.Guard.Security;

/// <summary>How people sign in (section <c>BenchWeb:Security</c>). Sign-in is always on.</summary>
public sealed class SecurityOptions
{
    public const string SectionName = "BenchWeb:Security";

    /// <summary><c>Local</c> (default): a one-time admin sign-in link on the console (<see cref="LocalAdminLink"/>), and admins
    /// invite others with one-time links. <c>OpenIdConnect</c>: an identity provider such as Microsoft Entra ID.</summary>
    public SignInMode SignIn { get; set; } = SignInMode.Local;

    public OpenIdConnectSignInOptions OpenIdConnect { get; set; } = new();

    public EasyAuthOptions EasyAuth { get; set; } = new();

    /// <summary>Provider role or group values and the BenchWeb role each gives, e.g. <c>"BenchWeb.Admin": "Admin"</c>
    /// or a group's object id. Values named Viewer, Runner or Admin (any case) need no entry.</summary>
    public Dictionary<string, string> RoleMap { get; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>The role of a provider user whose claims map to none; empty (default): such a user is refused.</summary>
    public string? DefaultRole { get; set; }

    /// <summary>Whether runs may connect to service endpoints on this machine (<c>localhost</c>, 127.0.0.0/8, <c>::1</c>),
    /// over http too: for emulators and test servers. Off by default: a Runner could otherwise aim a run, and a stored
    /// account key, at services that listen only on the host.</summary>
    public bool AllowLoopbackEndpoints { get; set; }

    /// <summary>The endpoint allow-list's host patterns until an administrator sets their own on the settings page.
    /// Empty (default): <see cref="Guard.Security.EndpointAllowList.BuiltInPatterns"/>.</summary>
    public IList<string>? EndpointAllowList { get; set; }

    /// <summary>How long a browser session lasts without activity (each use extends it, up to <see cref="SessionMaxHours"/>).</summary>
    [Range(1, 24 * 30)]
    public int SessionHours { get; set; } = 12;

    /// <summary>How long a browser session lasts at most from its sign-in, however active: then its user signs in again.</summary>
    [Range(1, 24 * 30)]
    public int SessionMaxHours { get; set; } = 24;
}

public enum SignInMode
{
    Local,
    OpenIdConnect,
}

/// <summary>OpenID Connect sign-in (e.g. Microsoft Entra ID): an app registration's authority, client id and secret.</summary>
public sealed class OpenIdConnectSignInOptions
{
    /// <summary>e.g. <c>https://login.microsoftonline.com/&lt;tenant-id&gt;/v2.0</c>.</summary>
    public string? Authority { get; set; }

    public string? ClientId { get; set; }

    /// <summary>Write-only: from configuration or an environment variable, never shown.</summary>
    public string? ClientSecret { get; set; }

    /// <summary>Claims whose values are mapped to roles: Entra ID's app roles (<c>roles</c>) and groups (<c>groups</c>).</summary>
    public IList<string> RoleClaims { get; } = ["roles", "groups"];

    /// <summary>Scopes asked for besides <c>openid</c> and <c>profile</c>.</summary>
    public IList<string> Scopes { get; } = [];

    /// <summary>What the sign-in button says.</summary>
    public string DisplayName { get; set; } = "your organisation's sign-in";
}

/// <summary>Azure App Service authentication ("Easy Auth"): App Service signs users in and passes who they are in
/// request headers. Honoured only when enabled here, because anyone can send such headers to an app that is not
/// behind App Service.</summary>
public sealed class EasyAuthOptions
{
    public bool Enabled { get; set; }
}
