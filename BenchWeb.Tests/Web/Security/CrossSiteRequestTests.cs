using System.Net;
using Microsoft.AspNetCore.Http;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Launch;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Security;

/// <summary>Another site's page cannot act with a signed-in user's browser session: no state change and no
/// WebSocket from a foreign origin. API tokens are no ambient credential and pass.</summary>
[IntegrationTest]
public sealed class CrossSiteRequestTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("Origin", "http://evil.example")]
    [InlineData("Origin", "null")]
    [InlineData("Origin", "http://localhost.evil.example")]
    [InlineData("Referer", "http://evil.example/page")]
    public async Task CancelFromAnotherSite_WithTheUsersSession_IsRefusedAndTheRunGoesOn(string header, string value)
    {
        await using var app = new BenchWebFactory();
        using var browser = await SignedInBrowserAsync(app);
        var runId = await StartLongRunAsync(app);

        using var request = new HttpRequestMessage(HttpMethod.Post, $"/api/runs/{runId}/cancel");
        request.Headers.TryAddWithoutValidation(header, value);
        var response = await browser.SendAsync(request);

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Contains("Cross-site request refused", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        var run = await app.Services.RunAsync(runId);
        Assert.Null(run.CancelRequestedAt);
        Assert.True(run.IsActive);
        await app.Get<RunService>().CancelAsync(runId, TestActors.Runner, CancellationToken.None);
    }

    [Theory]
    [InlineData("/signin")]
    [InlineData("/api/runs")]
    [InlineData("/runs/999999")]
    [InlineData("/app.css")]
    public async Task EveryAnswer_SaysNotToGuessItsType_NorToSendItsAddressToAnotherSite(string path)
    {
        await using var app = new BenchWebFactory();
        using var anonymous = app.CreateClient(new() { AllowAutoRedirect = false });

        using var response = await anonymous.GetAsync(path);

        Assert.Equal(["nosniff"], response.Headers.GetValues("X-Content-Type-Options"));
        Assert.Equal(["same-origin"], response.Headers.GetValues("Referrer-Policy"));
    }

    [Fact]
    public async Task CancelFromTheAppsOwnPage_WithTheUsersSession_Works()
    {
        await using var app = new BenchWebFactory();
        using var browser = await SignedInBrowserAsync(app);
        var runId = await StartLongRunAsync(app);

        using var request = new HttpRequestMessage(HttpMethod.Post, $"/api/runs/{runId}/cancel");
        request.Headers.Add("Origin", "http://localhost");
        var response = await browser.SendAsync(request);

        Assert.True(response.IsSuccessStatusCode, $"{(int)response.StatusCode}");
        Assert.Equal(RunStatus.Cancelled, (await app.Services.WaitUntilEndedAsync(runId, Timeout)).Status);
    }

    [Fact]
    public async Task CancelWithAnApiToken_FromAnyOrigin_Works()
    {
        await using var app = new BenchWebFactory();
        using var pipeline = await app.CreateClientAsync(BenchWebRoles.Runner);
        var runId = await StartLongRunAsync(app);

        using var request = new HttpRequestMessage(HttpMethod.Post, $"/api/runs/{runId}/cancel");
        request.Headers.Add("Origin", "http://evil.example");
        var response = await pipeline.SendAsync(request);

        Assert.True(response.IsSuccessStatusCode, $"{(int)response.StatusCode}");
    }

    [Fact]
    public async Task HubWebSocket_FromAnotherSite_WithTheUsersSession_IsRefused()
    {
        await using var app = new BenchWebFactory();
        var sessionCookie = await SessionCookieAsync(app);

        async Task<Exception?> ConnectAsync(string origin)
        {
            var client = app.Server.CreateWebSocketClient();
            client.ConfigureRequest = request =>
            {
                request.Headers.Cookie = sessionCookie;
                request.Headers.Origin = origin;
            };
            try
            {
                using var socket = await client.ConnectAsync(new Uri(app.Server.BaseAddress, "hubs/runs"), CancellationToken.None);
                return null;
            }
            catch (InvalidOperationException ex)
            {
                return ex;
            }
        }

        Assert.Contains("403", (await ConnectAsync("http://evil.example"))?.Message, StringComparison.Ordinal);
        Assert.Null(await ConnectAsync("http://localhost"));
    }

    /// <summary>On a real server (Kestrel), where the WebSocket feature is added by the hub's and the circuit's own endpoints
    /// after the guard has run: the in-memory test server above supplies it itself, which hid that the guard saw no WebSocket.
    /// A page on another port of the same host carries the same cookie (cookies ignore ports) and must be refused too.</summary>
    [Theory]
    [InlineData("hubs/runs")]
    [InlineData("_blazor")]
    public async Task WebSocket_FromAnotherPortOfTheSameHost_WithTheUsersSession_IsRefusedByARealServer(string path)
    {
        await using var host = await DashboardHost.StartAsync();
        var users = host.Get<UserDirectory>();
        var token = await users.InviteAsync("socket user", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);
        using var handler = new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false };
        using var http = new HttpClient(handler) { BaseAddress = host.BaseAddress };
        var signIn = await http.GetAsync($"/signin/local?token={token}");
        var cookie = signIn.Headers.GetValues("Set-Cookie").Select(c => c.Split(';', 2)[0]).Single(c => c.StartsWith(BenchWeb.Hosting.SecurityExtensions.SessionCookie, StringComparison.Ordinal));
        var socketUri = new UriBuilder(new Uri(host.BaseAddress, path)) { Scheme = "ws" }.Uri;

        async Task<System.Net.WebSockets.WebSocketState?> ConnectAsync(string origin)
        {
            using var socket = new System.Net.WebSockets.ClientWebSocket();
            socket.Options.SetRequestHeader("Cookie", cookie);
            socket.Options.SetRequestHeader("Origin", origin);
            try
            {
                await socket.ConnectAsync(socketUri, CancellationToken.None);
                return socket.State;
            }
            catch (System.Net.WebSockets.WebSocketException)
            {
                return null;
            }
        }

        var otherPort = new UriBuilder(host.BaseAddress) { Port = host.BaseAddress.Port == 65535 ? 1 : host.BaseAddress.Port + 1 }.Uri.GetLeftPart(UriPartial.Authority);
        Assert.Null(await ConnectAsync(otherPort));
        Assert.Null(await ConnectAsync("http://evil.example"));
        Assert.Equal(System.Net.WebSockets.WebSocketState.Open, await ConnectAsync(host.BaseAddress.GetLeftPart(UriPartial.Authority)));
    }

    [Theory]
    [InlineData("websocket", true)]
    [InlineData("WebSocket", true)]
    [InlineData("h2c", false)]
    public void IsWebSocketUpgrade_ReadsTheUpgradeHeader(string upgrade, bool expected)
    {
        var context = new DefaultHttpContext();
        context.Request.Headers.Upgrade = upgrade;

        Assert.Equal(expected, CrossSiteRequestGuard.IsWebSocketUpgrade(context.Request));
    }

    private static async Task<long> StartLongRunAsync(BenchWebFactory app)
    {
        var runId = await app.Get<RunService>().StartAsync(new RunPlan { Name = "cross-site target", Stop = new StopOptions { DurationSeconds = 120 } }, null, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(runId)).Status == RunStatus.Running, Timeout, "the run to start");
        return runId;
    }

    /// <summary>A browser signed in as the administrator with the printed link: its session is a cookie.</summary>
    private static async Task<HttpClient> SignedInBrowserAsync(BenchWebFactory app)
    {
        var browser = SignInTests.Browser(app);
        var signIn = await browser.GetAsync(app.Get<LocalAdminLink>().Link!.PathAndQuery);
        Assert.Equal("/", signIn.Headers.Location?.OriginalString);
        return browser;
    }

    private static async Task<string> SessionCookieAsync(BenchWebFactory app)
    {
        var users = app.Get<UserDirectory>();
        var token = await users.InviteAsync("socket user", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);
        using var http = SignInTests.Browser(app);
        var response = await http.GetAsync($"/signin/local?token={token}");
        return response.Headers.GetValues("Set-Cookie").Select(c => c.Split(';', 2)[0]).Single(c => c.StartsWith(BenchWeb.Hosting.SecurityExtensions.SessionCookie, StringComparison.Ordinal));
    }
}
