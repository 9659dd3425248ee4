using System.Globalization;

namespace BenchWeb.Tests.Support;

/// <summary>A real OpenID Connect provider (node-oidc-provider, tools/servers/oidc-server.mjs) on loopback, with one
/// client for a dashboard at <paramref name="app"/>. Its development login form takes any name; the name decides the
/// roles ("alice-admin" has BenchWeb.Admin, "carol-viewer" BenchWeb.Viewer, any other name none).</summary>
public sealed class OidcProviderServer(Uri app) : LocalServer
{
    public const string ClientId = "benchweb-tests";
    public const string ClientSecret = "benchweb-tests-secret";

    public string Authority => $"http://127.0.0.1:{Port}";

    protected override string Name => "oidc-provider";

    protected override IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
    [
        Path.Combine(serversDirectory, "oidc-server.mjs"),
        port.ToString(CultureInfo.InvariantCulture),
        ClientId,
        ClientSecret,
        new Uri(app, "signin-oidc").ToString(),
        new Uri(app, "signout-callback-oidc").ToString(),
    ];

    /// <summary>The dashboard's configuration for signing in with this provider, as environment variables.</summary>
    public IReadOnlyDictionary<string, string> DashboardSettings => new Dictionary<string, string>
    {
        ["BenchWeb__Security__SignIn"] = "OpenIdConnect",
        ["BenchWeb__Security__OpenIdConnect__Authority"] = Authority,
        ["BenchWeb__Security__OpenIdConnect__ClientId"] = ClientId,
        ["BenchWeb__Security__OpenIdConnect__ClientSecret"] = ClientSecret,
        ["BenchWeb__Security__OpenIdConnect__Scopes__0"] = "roles",
        ["BenchWeb__Security__OpenIdConnect__DisplayName"] = "the test provider",
        ["BenchWeb__Security__RoleMap__BenchWeb.Admin"] = "Admin",
        ["BenchWeb__Security__RoleMap__BenchWeb.Runner"] = "Runner",
        ["BenchWeb__Security__RoleMap__BenchWeb.Viewer"] = "Viewer",
    };
}
