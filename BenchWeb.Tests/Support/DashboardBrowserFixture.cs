using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>One dashboard process and one Chromium for the browser tests; each test opens its own page.</summary>
public sealed class DashboardBrowserFixture : IAsyncLifetime
{
    private IPlaywright? _playwright;
    private IBrowser? _browser;
    private DashboardProcess? _app;

    public DashboardProcess App => _app ?? throw new InvalidOperationException("The dashboard has not started.");

    public IBrowser Browser => _browser ?? throw new InvalidOperationException("Chromium has not started.");

    /// <summary>A browser context signed in as the administrator (the dashboard's printed link, opened once).</summary>
    public Task<IBrowserContext> NewSignedInContextAsync(BrowserNewContextOptions? options = null) =>
        DashboardPages.NewSignedInContextAsync(Browser, App, options);

    public async Task InitializeAsync()
    {
        _app = await DashboardProcess.StartAsync();
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
    }
}
