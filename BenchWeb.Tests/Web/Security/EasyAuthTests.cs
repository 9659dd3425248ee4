using System.Net;
using System.Text;
using System.Text.Json;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Security;

/// <summary>App Service authentication's headers: honoured only when the installation enables them.</summary>
[IntegrationTest]
public sealed class EasyAuthTests
{
    private static readonly Dictionary<string, string?> Enabled = new() { ["BenchWeb:Security:EasyAuth:Enabled"] = "true" };

    [Fact]
    public async Task PrincipalHeaders_WhenNotEnabled_AreIgnored()
    {
        await using var app = new BenchWebFactory();
        using var http = Caller(app, "Admin");

        Assert.Equal(HttpStatusCode.Unauthorized, (await http.GetAsync("/api/runs")).StatusCode);
        Assert.Empty(await app.Get<UserDirectory>().UsersAsync(CancellationToken.None));
    }

    [Theory]
    [InlineData("Viewer", HttpStatusCode.OK, HttpStatusCode.Redirect)]
    [InlineData("Runner", HttpStatusCode.OK, HttpStatusCode.Redirect)]
    [InlineData("Admin", HttpStatusCode.OK, HttpStatusCode.OK)]
    public async Task PrincipalHeaders_WhenEnabled_SignInWithTheMappedRole(string role, HttpStatusCode runs, HttpStatusCode users)
    {
        await using var app = new BenchWebFactory(Enabled);
        using var http = Caller(app, role);

        Assert.Equal(runs, (await http.GetAsync("/api/runs")).StatusCode);
        // A page the role does not allow sends its visitor to the "not allowed" page, as for browser sessions.
        var page = await http.GetAsync("/admin/users");
        Assert.Equal(users, page.StatusCode);
        Assert.Equal(users == HttpStatusCode.Redirect ? "/denied" : null, page.Headers.Location?.OriginalString);
        var user = Assert.Single(await app.Get<UserDirectory>().UsersAsync(CancellationToken.None));
        Assert.Equal(("easyauth:0a1b2c", "lee@example.com", role, SignInSources.EasyAuth), (user.Id, user.Name, user.Role, user.Source));
    }

    [Fact]
    public async Task PrincipalHeaders_WithNoBenchWebRole_AreRefused()
    {
        await using var app = new BenchWebFactory(Enabled);
        using var http = Caller(app, "SomeOtherAppRole");

        var response = await http.GetAsync("/api/runs");

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }

    [Fact]
    public async Task PrincipalHeader_NotBase64Json_IsRefused()
    {
        await using var app = new BenchWebFactory(Enabled);
        using var http = app.CreateClient();
        http.DefaultRequestHeaders.Add(EasyAuthAuthenticationHandler.PrincipalHeader, "%%% not base64");
        http.DefaultRequestHeaders.Add(EasyAuthAuthenticationHandler.PrincipalIdHeader, "x");

        Assert.Equal(HttpStatusCode.Unauthorized, (await http.GetAsync("/api/runs")).StatusCode);
    }

    /// <summary>A request as App Service forwards it after signing its user in.</summary>
    private static HttpClient Caller(BenchWebFactory app, string role)
    {
        var principal = JsonSerializer.Serialize(new
        {
            auth_typ = "aad",
            name_typ = "name",
            role_typ = "roles",
            claims = new[] { new { typ = "name", val = "lee@example.com" }, new { typ = "roles", val = role } },
        });
        var http = app.CreateClient(new Microsoft.AspNetCore.Mvc.Testing.WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        http.DefaultRequestHeaders.Add(EasyAuthAuthenticationHandler.PrincipalHeader, Convert.ToBase64String(Encoding.UTF8.GetBytes(principal)));
        http.DefaultRequestHeaders.Add(EasyAuthAuthenticationHandler.PrincipalIdHeader, "0a1b2c");
        http.DefaultRequestHeaders.Add(EasyAuthAuthenticationHandler.PrincipalNameHeader, "lee@example.com");
        return http;
    }
}
