using System.Globalization;
using System.Net;
using BenchWeb.Hosting;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchWeb.Tests.Web.Health;

/// <summary>The probes App Service and container hosts send, with no sign-in: they get in, and learn the status word only,
/// never which dependency failed or where it is.</summary>
[IntegrationTest]
public sealed class HealthEndpointsTests
{
    [Fact]
    public async Task Live_AnswersHealthy_WithoutSignIn()
    {
        await using var app = new BenchWebFactory();
        using var http = Anonymous(app);

        using var response = await http.GetAsync(new Uri(HealthExtensions.LivePath, UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("Healthy", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task Ready_AnswersHealthy_OnTheEmbeddedDefaults()
    {
        await using var app = new BenchWebFactory();
        using var http = Anonymous(app);

        using var response = await http.GetAsync(new Uri(HealthExtensions.ReadyPath, UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("Healthy", await response.Content.ReadAsStringAsync());
    }

    /// <summary>Slow: the first connection attempt to a port nobody listens on lasts the client's connect timeout (5 s).</summary>
    [Fact]
    [Slow]
    public async Task Ready_Answers503WithTheWordOnly_WhenTheRedisBackplaneDoesNotAnswer()
    {
        var port = DashboardProcess.FreePort().ToString(CultureInfo.InvariantCulture);
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["ConnectionStrings:Redis"] = $"127.0.0.1:{port}" });
        using var http = Anonymous(app);

        using var response = await http.GetAsync(new Uri(HealthExtensions.ReadyPath, UriKind.Relative));
        using var live = await http.GetAsync(new Uri(HealthExtensions.LivePath, UriKind.Relative));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal("Unhealthy", body);
        var headers = response.Headers.Concat(response.Content.Headers).SelectMany(h => h.Value.Select(v => $"{h.Key}: {v}")).ToList();
        Assert.All(headers, header => Assert.DoesNotContain(port, header, StringComparison.Ordinal));
        Assert.All(headers, header => Assert.DoesNotContain("redis", header, StringComparison.OrdinalIgnoreCase));
        // Liveness checks nothing: the process is up, a restart would not bring the server back.
        Assert.Equal(HttpStatusCode.OK, live.StatusCode);
    }

    [Fact]
    public async Task Ready_FollowsTheRedisBackplane_HealthyWhileItAnswers_UnhealthyOnceItStops()
    {
        await using var server = await RedisServer.StartAsync();
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["ConnectionStrings:Redis"] = $"127.0.0.1:{server.Port}" });
        using var http = Anonymous(app);

        using var before = await http.GetAsync(new Uri(HealthExtensions.ReadyPath, UriKind.Relative));
        server.Kill();
        using var after = await http.GetAsync(new Uri(HealthExtensions.ReadyPath, UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, before.StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, after.StatusCode);
        Assert.Equal("Unhealthy", await after.Content.ReadAsStringAsync());
    }

    private static HttpClient Anonymous(BenchWebFactory app) =>
        app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
}
