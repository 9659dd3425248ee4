using System.Collections.Concurrent;
using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>A signed-in browser context with one page whose script errors and console errors are collected, so a test
/// can say the page ran clean.</summary>
internal sealed class WatchedPage : IAsyncDisposable
{
    private readonly IBrowserContext _context;
    private readonly ConcurrentQueue<string> _errors = new();

    private WatchedPage(IBrowserContext context, IPage page)
    {
        _context = context;
        Page = page;
        page.PageError += (_, error) => _errors.Enqueue($"page error: {error}");
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                _errors.Enqueue($"console error: {message.Text}");
            }
        };
    }

    public IPage Page { get; }

    /// <summary>What the page reported as errors, oldest first.</summary>
    public IReadOnlyCollection<string> Errors => _errors;

    /// <summary>A new signed-in context of this size (30 s timeouts) and its page.</summary>
    public static async Task<WatchedPage> OpenAsync(DashboardBrowserFixture fixture, int width, int height)
    {
        ArgumentNullException.ThrowIfNull(fixture);
        Assertions.SetDefaultExpectTimeout(30_000);
        var context = await fixture.NewSignedInContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = width, Height = height } });
        context.SetDefaultTimeout(30_000);
        return new WatchedPage(context, await context.NewPageAsync());
    }

    public ValueTask DisposeAsync() => new(_context.CloseAsync());
}
