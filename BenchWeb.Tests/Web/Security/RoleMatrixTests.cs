using System.Net;
using System.Text.RegularExpressions;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Security;

/// <summary>Every endpoint of the app, as its endpoint data source lists them, against every role: nobody gets in
/// without signing in (save the sign-in pages, the health probes and static files), and each role gets exactly what the
/// matrix says. A new endpoint fails here until it is placed in the matrix.</summary>
[IntegrationTest]
public sealed partial class RoleMatrixTests
{
    /// <summary>The least role each endpoint needs ("" = anyone, signed in or not), by "METHOD pattern".</summary>
    private static readonly Dictionary<string, string> Matrix = new(StringComparer.Ordinal)
    {
        // Signing in, and the pages a visitor who is not signed in may see (pages answer GET and their forms' POST).
        ["* /signin"] = "",
        ["GET /signin/local"] = "",
        ["POST /signin/local"] = "",
        ["GET /signin/provider"] = "",
        ["POST /signout"] = "",
        ["* /denied"] = "",
        ["* /not-found"] = "",
        ["* /Error"] = "",
        // Probes from App Service and container hosts, answered with a status word only.
        ["* /health/live"] = "",
        ["* /health/ready"] = "",

        // Pages.
        ["* /"] = BenchWebRoles.Viewer,
        ["* /profiles"] = BenchWebRoles.Viewer,
        ["* /profiles/new"] = BenchWebRoles.Runner,
        ["* /profiles/{Id:long}"] = BenchWebRoles.Runner,
        ["* /profiles/{Id:long}/settings"] = BenchWebRoles.Viewer,
        ["* /runs"] = BenchWebRoles.Viewer,
        ["* /runs/{Id:long}"] = BenchWebRoles.Viewer,
        ["* /runs/import"] = BenchWebRoles.Runner,
        ["* /compare"] = BenchWebRoles.Viewer,
        ["* /results"] = BenchWebRoles.Viewer,
        ["* /account"] = BenchWebRoles.Viewer,
        ["* /admin/users"] = BenchWebRoles.Admin,
        ["* /files"] = BenchWebRoles.Viewer,
        ["* /agents"] = BenchWebRoles.Viewer,
        ["* /sweeps"] = BenchWebRoles.Viewer,
        ["* /sweeps/{Id:long}"] = BenchWebRoles.Viewer,
        ["* /admin/settings"] = BenchWebRoles.Admin,
        ["* /admin/audit"] = BenchWebRoles.Admin,
        ["* /{**path:file}"] = BenchWebRoles.Viewer,

        // The HTTP API.
        ["GET /openapi/{documentName}.json"] = BenchWebRoles.Viewer,
        ["GET /api/profiles/"] = BenchWebRoles.Viewer,
        ["GET /api/profiles/{id:long}"] = BenchWebRoles.Viewer,
        ["POST /api/profiles/"] = BenchWebRoles.Runner,
        ["GET /api/runs/"] = BenchWebRoles.Viewer,
        ["GET /api/runs/{id:long}"] = BenchWebRoles.Viewer,
        ["POST /api/runs/"] = BenchWebRoles.Runner,
        ["POST /api/runs/{id:long}/cancel"] = BenchWebRoles.Runner,
        ["GET /api/runs/{id:long}/agents"] = BenchWebRoles.Viewer,
        ["GET /api/agents"] = BenchWebRoles.Viewer,
        ["GET /api/runs/{id:long}/export.json"] = BenchWebRoles.Viewer,
        ["GET /api/runs/{id:long}/diagnostics"] = BenchWebRoles.Viewer,
        ["GET /api/runs/{id:long}/export.csv"] = BenchWebRoles.Viewer,
        ["POST /api/runs/import"] = BenchWebRoles.Runner,
        ["GET /api/sweeps/"] = BenchWebRoles.Viewer,
        ["GET /api/sweeps/{id:long}"] = BenchWebRoles.Viewer,
        ["POST /api/sweeps/"] = BenchWebRoles.Runner,
        ["POST /api/sweeps/{id:long}/cancel"] = BenchWebRoles.Runner,
        ["GET /api/sweeps/{id:long}/export.csv"] = BenchWebRoles.Viewer,
        ["GET /api/sweeps/{id:long}/export.md"] = BenchWebRoles.Viewer,
        ["GET /api/files/"] = BenchWebRoles.Viewer,
        ["GET /api/files/{id:long}"] = BenchWebRoles.Viewer,
        ["POST /api/files/"] = BenchWebRoles.Runner,
        ["DELETE /api/files/{id:long}"] = BenchWebRoles.Admin,
        ["GET /api/audit/"] = BenchWebRoles.Admin,
        ["GET /api/audit/export.csv"] = BenchWebRoles.Admin,
        ["GET /api/admin/kill-switch/"] = BenchWebRoles.Admin,
        ["POST /api/admin/kill-switch/"] = BenchWebRoles.Admin,
        ["DELETE /api/admin/kill-switch/"] = BenchWebRoles.Admin,
        ["* /api/{**path}"] = BenchWebRoles.Viewer,
        ["GET /compare.csv"] = BenchWebRoles.Viewer,
        ["GET /results.csv"] = BenchWebRoles.Viewer,
        ["GET /jobs"] = BenchWebRoles.Viewer,

        // Live updates, the Blazor circuit, the jobs dashboard.
        ["* /hubs/runs"] = BenchWebRoles.Viewer,
        ["* /hubs/runs/negotiate"] = BenchWebRoles.Viewer,
        ["* /_blazor"] = BenchWebRoles.Viewer,
        ["* /_blazor/negotiate"] = BenchWebRoles.Viewer,
        ["* /_blazor/disconnect/"] = BenchWebRoles.Viewer,
        ["* /_blazor/initializers/"] = BenchWebRoles.Viewer,
        ["GET /_framework/opaque-redirect"] = BenchWebRoles.Viewer,
        ["* /hangfire/{**path}"] = BenchWebRoles.Admin,
    };

    private static readonly string?[] Callers = [null, BenchWebRoles.Viewer, BenchWebRoles.Runner, BenchWebRoles.Admin];

    [Fact]
    public async Task Matrix_ListsEveryEndpoint_WithTheRoleItsAuthorizationAsks()
    {
        await using var app = new BenchWebFactory();

        var endpoints = Endpoints(app);

        var unlisted = endpoints.Where(e => !Matrix.ContainsKey(e.Key)).Select(e => e.Key).ToList();
        Assert.True(unlisted.Count == 0, "Endpoints missing from the role matrix: " + string.Join(", ", unlisted));
        Assert.Empty(Matrix.Keys.Except(endpoints.Select(e => e.Key)));
        foreach (var (key, endpoint) in endpoints)
        {
            Assert.True(Matrix[key] == RequiredRole(endpoint), $"{key}: the matrix says '{Matrix[key]}', its authorization asks '{RequiredRole(endpoint)}'.");
        }
    }

    [Fact]
    public async Task EveryEndpoint_RefusesWhoeverTheMatrixRefuses_AndLetsTheOthersIn()
    {
        await using var app = new BenchWebFactory();
        var tokens = new Dictionary<string, string>();
        foreach (var role in BenchWebRoles.All)
        {
            tokens[role] = await app.Services.CreateTokenAsync(role);
        }

        var failures = new List<string>();
        var endpoints = Endpoints(app);
        foreach (var (key, required) in Matrix.Where(m => m.Value.Length > 0))
        {
            var (method, path) = Request(key);
            var accepts = endpoints[key].Metadata.GetMetadata<Microsoft.AspNetCore.Http.Metadata.IAcceptsMetadata>()?.ContentTypes ?? [];
            foreach (var caller in Callers)
            {
                using var http = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
                using var request = new HttpRequestMessage(new HttpMethod(method), path);
                if (method == "POST")
                {
                    // A body of a type the endpoint takes, so routing reaches the endpoint itself.
                    request.Content = accepts.Contains("text/csv")
                        ? new StringContent("a,b\n1,2\n", System.Text.Encoding.UTF8, "text/csv")
                        : new StringContent("{}", System.Text.Encoding.UTF8, "application/json");
                }

                if (caller is not null)
                {
                    request.Headers.Authorization = new("Bearer", tokens[caller]);
                }

                using var response = await http.SendAsync(request);
                var status = (int)response.StatusCode;
                var expected = caller is null ? "sign in" : BenchWebRoles.Rank(caller) >= BenchWebRoles.Rank(required) ? "allowed" : "forbidden";
                var actual = status is 401 || (status is 302 && response.Headers.Location?.OriginalString.Contains("/signin", StringComparison.Ordinal) == true) ? "sign in"
                    : status is 403 ? "forbidden"
                    : "allowed";
                if (actual != expected)
                {
                    failures.Add($"{method} {path} as {caller ?? "anonymous"}: {status}, expected {expected}");
                }
            }
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures));
    }

    [Fact]
    public async Task StaticFiles_AreServedToAnyone_AndAreTheOnlyOtherAnonymousEndpoints()
    {
        await using var app = new BenchWebFactory();
        using var http = app.CreateClient();

        var script = await http.GetAsync(new Uri("_framework/blazor.web.js", UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, script.StatusCode);
        var anonymous = app.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IAllowAnonymous>() is not null)
            .Select(Key)
            .Where(key => !Matrix.TryGetValue(key, out var role) || role.Length > 0)
            .ToList();
        Assert.All(anonymous, key => Assert.Matches(StaticAsset(), key));
    }

    private static Dictionary<string, RouteEndpoint> Endpoints(BenchWebFactory app) =>
        app.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IAllowAnonymous>() is null || !StaticAsset().IsMatch(Key(e)))
            .GroupBy(Key)
            .ToDictionary(g => g.Key, g => g.First());

    private static string Key(RouteEndpoint endpoint)
    {
        var methods = endpoint.Metadata.GetMetadata<Microsoft.AspNetCore.Routing.HttpMethodMetadata>()?.HttpMethods;
        var method = methods is { Count: 1 } ? methods[0] : "*";
        return $"{method} /{endpoint.RoutePattern.RawText?.TrimStart('/')}";
    }

    /// <summary>The least role the endpoint's authorization metadata asks; the fallback policy (Viewer) when none.</summary>
    private static string RequiredRole(RouteEndpoint endpoint)
    {
        if (endpoint.Metadata.GetMetadata<IAllowAnonymous>() is not null)
        {
            return "";
        }

        var asked = endpoint.Metadata.GetOrderedMetadata<IAuthorizeData>().Select(a => BenchWebRoles.Parse(a.Policy) ?? BenchWebRoles.Viewer);
        return asked.Aggregate(BenchWebRoles.Viewer, (a, b) => BenchWebRoles.Highest(a, b)!);
    }

    private static (string Method, string Path) Request(string key)
    {
        var (method, pattern) = (key[..key.IndexOf(' ', StringComparison.Ordinal)], key[(key.IndexOf(' ', StringComparison.Ordinal) + 1)..]);
        var path = Parameter().Replace(pattern, m => m.Value.Contains("**", StringComparison.Ordinal) ? "x" : m.Value.StartsWith("{documentName", StringComparison.Ordinal) ? "v1" : "1");
        return (method == "*" ? "GET" : method, path);
    }

    [GeneratedRegex(@"\{[^}]+\}")]
    private static partial Regex Parameter();

    [GeneratedRegex(@"^(GET|\*) /(_framework/|_content/|lib/|js/|Components/[\w/.]+\.razor\.js(\.gz)?$|app\.|BenchWeb\.|\{\*\*path:file\}$)")]
    private static partial Regex StaticAsset();
}
