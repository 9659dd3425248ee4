using System.Collections.Concurrent;
using System.Text.Json;
using BenchWeb.Guard.Security;
using BenchWeb.Hosting;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Playwright;

namespace BenchWeb.Tests.E2E;

/// <summary>A page on another port of the same host, in a browser signed in to the dashboard, opens a WebSocket to the
/// runs hub or the Blazor circuit: the browser attaches the session cookie (127.0.0.1 on another port is the same site, and
/// the cookie is <c>SameSite=Lax</c>), so only the origin rule stands between that page and the signed-in user's data. The
/// page is served by a second real listener, and the socket is SignalR's own without negotiation (a plain WebSocket, then
/// the JSON handshake), as a hostile page would open it: negotiation is a cross-origin POST no preflight allows.</summary>
[BrowserTest]
[Slow]
public sealed class CrossSiteWebSocketBrowserTests : IAsyncLifetime
{
    private readonly ConcurrentQueue<UpgradeSeen> _upgrades = new();
    private DashboardHost? _app;
    private WebApplication? _otherSite;
    private IPlaywright? _playwright;
    private IBrowser? _browser;

    private DashboardHost App => _app ?? throw new InvalidOperationException("The dashboard has not started.");

    /// <summary>The other site's page, e.g. <c>http://127.0.0.1:40124/</c>.</summary>
    private Uri OtherSite => new(_otherSite?.Urls.First() ?? throw new InvalidOperationException("The other site has not started."));

    private IBrowser Browser => _browser ?? throw new InvalidOperationException("Chromium has not started.");

    public async Task InitializeAsync()
    {
        _app = await DashboardHost.StartAsync(null, services => services.AddSingleton<IStartupFilter>(new UpgradeWatch(_upgrades)));
        _otherSite = await StartOtherSiteAsync();
        _playwright = await Playwright.CreateAsync();
        _browser = await Chromium.LaunchAsync(_playwright);
    }

    public async Task DisposeAsync()
    {
        if (_browser is not null)
        {
            await _browser.CloseAsync();
        }

        _playwright?.Dispose();
        if (_otherSite is not null)
        {
            await _otherSite.DisposeAsync();
        }

        if (_app is not null)
        {
            await _app.DisposeAsync();
        }
    }

    [Theory]
    [InlineData("hubs/runs", "json")]
    [InlineData("_blazor", "blazorpack")]
    public async Task WebSocket_FromAPageOnAnotherPortOfTheSameHost_InASignedInBrowser_IsRefusedThoughTheCookieCameWithIt(string path, string protocol)
    {
        var context = await SignedInContextAsync();
        var page = await context.NewPageAsync();
        var socketUrl = new UriBuilder(new Uri(App.BaseAddress, path)) { Scheme = "ws" }.Uri.ToString();
        var otherSite = OtherSite;
        Assert.Equal(App.BaseAddress.Host, otherSite.Host);
        Assert.NotEqual(App.BaseAddress.Port, otherSite.Port);

        // The same socket from the app's own page opens and its handshake is answered (the hub and the circuit need a
        // signed-in user): the probe works, and the cookie is a session.
        await page.GotoAsync(App.BaseAddress.ToString());
        await page.AddScriptTagAsync(new PageAddScriptTagOptions { Content = ProbeScript });
        var own = await ProbeAsync(page, socketUrl, protocol);
        Assert.True(own.Opened && own.Answer == HandshakeAnswered, $"From the app's own page: {own}");

        await page.GotoAsync(otherSite.ToString());
        var foreign = await ProbeAsync(page, socketUrl, protocol);

        Assert.False(foreign.Opened, $"From {otherSite}: {foreign}");
        Assert.Null(foreign.Answer);
        // The server saw the upgrade with the other port's origin and the session cookie, and refused it.
        var refused = Assert.Single(_upgrades, u => u.Path == "/" + path && u.Origin == otherSite.GetLeftPart(UriPartial.Authority));
        Assert.True(refused.HadSessionCookie, "The browser did not send the session cookie to the other port's socket.");
        Assert.Equal(StatusCodes.Status403Forbidden, refused.Status);
    }

    /// <summary>The browser signs in as a user would, with an invitation's link: the cookie is the one the app sets.</summary>
    private async Task<IBrowserContext> SignedInContextAsync()
    {
        var token = await App.Get<UserDirectory>().InviteAsync("cross-site viewer", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);
        var context = await Browser.NewContextAsync();
        context.SetDefaultTimeout(30_000);
        var signIn = await context.NewPageAsync();
        await signIn.GotoAsync(new Uri(App.BaseAddress, $"signin/local?token={Uri.EscapeDataString(token)}").ToString());
        var cookie = Assert.Single(await context.CookiesAsync([App.BaseAddress.ToString()]), c => c.Name == SecurityExtensions.SessionCookie);
        Assert.Equal(SameSiteAttribute.Lax, cookie.SameSite);
        await signIn.CloseAsync();
        return context;
    }

    private static async Task<ProbeResult> ProbeAsync(IPage page, string socketUrl, string protocol) =>
        JsonSerializer.Deserialize<ProbeResult>(await page.EvaluateAsync<string>("([url, protocol]) => probe(url, protocol)", new[] { socketUrl, protocol }), JsonSerializerOptions.Web)!;

    /// <summary>SignalR's answer to a handshake it accepts: an empty JSON object and the record separator.</summary>
    private const string HandshakeAnswered = "{}\u001e";

    /// <summary>A plain WebSocket, then SignalR's handshake (JSON text ended by the record separator) naming the hub
    /// protocol: <c>json</c> for the runs hub, <c>blazorpack</c> for the circuit. The result as JSON text.</summary>
    private const string ProbeScript = """
        window.probe = (url, protocol) => new Promise(resolve => {
          const result = { opened: false, answer: null, closeCode: null, error: false };
          const done = () => resolve(JSON.stringify(result));
          const socket = new WebSocket(url);
          // A binary protocol's handshake answer comes in a binary frame, still as UTF-8 text.
          socket.binaryType = 'arraybuffer';
          // A minute: a refused socket closes at once, and an accepted one answers within it even on a busy machine.
          const timer = setTimeout(() => { socket.close(); done(); }, 60000);
          socket.onopen = () => { result.opened = true; socket.send(JSON.stringify({ protocol, version: 1 }) + '\u001e'); };
          socket.onmessage = e => { result.answer = typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data); socket.close(); };
          socket.onerror = () => { result.error = true; };
          socket.onclose = e => { result.closeCode = e.code; clearTimeout(timer); done(); };
        });
        """;

    private static async Task<WebApplication> StartOtherSiteAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var site = builder.Build();
        site.MapGet("/", () => Results.Content($"<!doctype html><html><head><title>Another site</title><script>{ProbeScript}</script></head><body>Another site</body></html>", "text/html"));
        await site.StartAsync();
        return site;
    }

    private sealed record ProbeResult(bool Opened, string? Answer, int? CloseCode, bool Error);

    private sealed record UpgradeSeen(string Path, string Origin, bool HadSessionCookie, int Status);

    /// <summary>Records every WebSocket upgrade the app receives, before any of its own middleware, with the status it ends with.</summary>
    private sealed class UpgradeWatch(ConcurrentQueue<UpgradeSeen> seen) : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.Use(async (context, nextMiddleware) =>
            {
                if (!CrossSiteRequestGuard.IsWebSocketUpgrade(context.Request))
                {
                    await nextMiddleware(context);
                    return;
                }

                var request = context.Request;
                var upgrade = (Path: request.Path.Value ?? "", Origin: request.Headers.Origin.ToString(), Cookie: request.Cookies.ContainsKey(SecurityExtensions.SessionCookie));
                context.Response.OnStarting(() =>
                {
                    seen.Enqueue(new UpgradeSeen(upgrade.Path, upgrade.Origin, upgrade.Cookie, context.Response.StatusCode));
                    return Task.CompletedTask;
                });
                await nextMiddleware(context);
            });
            next(app);
        };
    }
}
