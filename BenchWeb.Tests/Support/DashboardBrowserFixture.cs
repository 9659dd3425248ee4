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
