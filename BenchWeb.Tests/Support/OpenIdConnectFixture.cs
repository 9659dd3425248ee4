using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>A real OpenID Connect provider, a dashboard process signing in with it, and Chromium.</summary>
public sealed class OpenIdConnectFixture : IAsyncLifetime
{
    private IPlaywright? _playwright;
    private IBrowser? _browser;
    private DashboardProcess? _app;
    private OidcProviderServer? _provider;

    public DashboardProcess App => _app ?? throw new InvalidOperationException("The dashboard has not started.");

    public OidcProviderServer Provider => _provider ?? throw new InvalidOperationException("The provider has not started.");

    public IBrowser Browser => _browser ?? throw new InvalidOperationException("Chromium has not started.");

    public async Task InitializeAsync()
    {
        // The provider knows the dashboard's callback address before either starts.
        var port = DashboardProcess.FreePort();
        _provider = new OidcProviderServer(new Uri($"http://127.0.0.1:{port}/"));
        await _provider.InitializeAsync();
        _app = await DashboardProcess.StartAsync(_provider.DashboardSettings, port);
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
        if (_app is not null)
        {
            await _app.DisposeAsync();
        }

        if (_provider is not null)
        {
            await _provider.DisposeAsync();
        }
    }
}
