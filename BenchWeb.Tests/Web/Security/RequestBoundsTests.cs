using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Hosting;

namespace BenchWeb.Tests.Web.Security;

/// <summary>What the app reads is bounded: body size (413), body type (415), the Host header (AllowedHosts), and
/// the texts a profile or an import stores.</summary>
[IntegrationTest]
public sealed class RequestBoundsTests
{
    private static readonly Dictionary<string, string?> SmallBodies = new() { ["BenchWeb:MaxRequestBodyBytes"] = "4096" };

    [Theory]
    [InlineData("/api/runs")]
    [InlineData("/api/profiles")]
    [InlineData("/api/runs/import")]
    public async Task Body_LargerThanTheLimit_Is413(string path)
    {
        await using var app = new BenchWebFactory(SmallBodies);
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);

        var response = await http.PostAsync(path, new StringContent(new string(' ', 5000) + "{}", Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Contains("larger than", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Body_WithoutALengthOverTheLimit_Is413FromTheServer()
    {
        // Kestrel counts what arrives when no Content-Length says the size up front.
        await using var host = await DashboardHost.StartAsync(SmallBodies);
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var content = new StreamContent(new MemoryStream(Encoding.UTF8.GetBytes("{\"plan\":{\"name\":\"" + new string('x', 10_000) + "\"}}")));
        content.Headers.ContentType = new("application/json");
        using var request = new HttpRequestMessage(HttpMethod.Post, "api/runs") { Content = content };
        request.Headers.TransferEncodingChunked = true;

        var response = await http.SendAsync(request);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
    }

    [Theory]
    [InlineData("/api/runs", "text/plain")]
    [InlineData("/api/profiles", "application/x-www-form-urlencoded")]
    [InlineData("/api/runs/import", "text/csv")]
    public async Task Body_NotJson_Is415(string path, string contentType)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);

        var response = await http.PostAsync(path, new StringContent("{\"plan\":{}}", Encoding.UTF8, contentType));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
    }

    [Theory]
    [InlineData("/api/runs/import", "text/plain")]
    [InlineData("/api/runs", "text/csv")]
    public async Task Body_NotJson_Is415SayingTheBodyMustBeJson(string path, string contentType)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);

        var response = await http.PostAsync(path, new StringContent("{\"plan\":{}}", Encoding.UTF8, contentType));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        var detail = JsonNode.Parse(await response.Content.ReadAsStringAsync())!["detail"]!.GetValue<string>();
        Assert.Equal($"The body must be JSON (Content-Type: application/json), not {contentType}.", detail);
    }

    [Theory]
    [InlineData("/api/runs/import", "the run export")]
    [InlineData("/api/runs", "the plan to run (or a profile's id)")]
    [InlineData("/api/profiles", "the profile (its name and plan)")]
    public async Task Body_EmptyJson_Is400SayingTheBodyIsEmpty(string path, string what)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Admin);

        var response = await http.PostAsync(path, new StringContent("", Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal($"The body is empty: send {what} as JSON.", JsonNode.Parse(body)!["errors"]!["$"]![0]!.GetValue<string>());
        Assert.DoesNotContain("isFinalBlock", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Body_AChoiceWithANameItDoesNotHave_Is400ListingTheNames()
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);

        var response = await http.PostAsync("/api/runs", new StringContent("{\"plan\":{\"name\":\"x\",\"load\":{\"model\":\"Bogus\"}}}", Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("the value is not one of ClosedLoop, OpenLoop", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/api/runs")]
    [InlineData("/api/profiles")]
    [InlineData("/api/runs/import")]
    public async Task Body_WithoutAType_Is415NamingJson_NotA404(string path)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Admin);

        var response = await http.PostAsync(path, null);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Contains("application/json", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("PUT", "/api/runs", "GET, POST")]
    [InlineData("DELETE", "/api/runs/1", "GET")]
    [InlineData("OPTIONS", "/api/runs", "GET, POST")]
    public async Task AnotherMethod_Is405WithTheMethodsTheAddressHas(string method, string path, string allowed)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);

        var response = await http.SendAsync(new HttpRequestMessage(new HttpMethod(method), path));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal(allowed, string.Join(", ", response.Content.Headers.Allow));
    }

    [Theory]
    [InlineData("/signin/local", null)]
    [InlineData("/signin/local", "token=abc")]
    [InlineData("/signout", "")]
    public async Task SignInOrOutForm_WithoutItsFieldsOrAntiforgeryToken_Is400WithoutTheFrameworksException(string path, string? form)
    {
        // In Development, as the README's first command starts it: the framework's exception page would show the stack.
        await using var factory = new BenchWebFactory();
        await using var app = factory.WithWebHostBuilder(builder => builder.UseEnvironment("Development"));
        using var anonymous = app.CreateClient(new Microsoft.AspNetCore.Mvc.Testing.WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        using var content = form is null ? null : new StringContent(form, Encoding.UTF8, "application/x-www-form-urlencoded");

        var response = await anonymous.PostAsync(path, content);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var body = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("Exception", body, StringComparison.Ordinal);
        Assert.DoesNotContain(" at Microsoft.", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task HostHeader_NotAnAllowedHost_Is400()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Viewer);
        using var request = new HttpRequestMessage(HttpMethod.Get, "api/runs");
        request.Headers.Host = "evil.example";

        Assert.Equal(HttpStatusCode.BadRequest, (await http.SendAsync(request)).StatusCode);
    }

    [Fact]
    public async Task HostHeader_Empty_Is400_EvenForASignedInPage_NotA500()
    {
        // A page renders from the request's address: with an empty Host the framework threw, and the error page with it.
        await using var app = await DashboardProcess.StartAsync();
        var session = await app.SessionCookieAsync();
        foreach (var path in new[] { "/", "/runs", "/api/runs" })
        {
            using var client = new System.Net.Sockets.TcpClient();
            await client.ConnectAsync(app.BaseAddress.Host, app.BaseAddress.Port);
            await using var stream = client.GetStream();
            await stream.WriteAsync(Encoding.ASCII.GetBytes($"GET {path} HTTP/1.1\r\nHost: \r\nCookie: {session.Name}={session.Value}\r\nConnection: close\r\n\r\n"));
            using var reader = new StreamReader(stream, Encoding.ASCII);

            var statusLine = await reader.ReadLineAsync();

            Assert.Equal("HTTP/1.1 400 Bad Request", statusLine);
        }
    }

    [Fact]
    public async Task ProfileDescription_OverTheLimit_IsRefusedNamingTheField()
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Runner);
        var body = new JsonObject { ["name"] = "long description", ["description"] = new string('d', 2_001), ["plan"] = new JsonObject { ["stop"] = new JsonObject { ["durationSeconds"] = 5 } } };

        var response = await http.PostAsync("/api/profiles", new StringContent(body.ToJsonString(), Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = JsonNode.Parse(await response.Content.ReadAsStringAsync())!["errors"]!.AsObject();
        Assert.Contains("Description", errors.Select(e => e.Key));
    }
}
