using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>The screenshots the documentation shows, taken by the browser tests as they pass so that the docs show the pages
/// as they are: one screen (the test's viewport, 1,366 px wide) from the element named, written as <c>docs-NAME.png</c>
/// beside the tests' other screenshots. <c>tools/docs-screenshots.sh</c> runs those tests and copies them into
/// <c>docs/images/</c>; <see cref="Web.DocsTests"/> checks that every image there is one of these.</summary>
public static class DocsScreenshots
{
    /// <summary>The prefix of every documentation screenshot's file name.</summary>
    public const string Prefix = "docs-";

    public static async Task TakeAsync(IPage page, string name, string? from = null)
    {
        ArgumentNullException.ThrowIfNull(page);
        if (from is not null)
        {
            await page.EvaluateAsync("s => document.querySelector(s).scrollIntoView({ block: 'start' })", from);
        }

        Directory.CreateDirectory(E2E.DashboardBrowserTests.ScreenshotDirectory);
        var path = Path.Combine(E2E.DashboardBrowserTests.ScreenshotDirectory, Prefix + name + ".png");
        await page.ScreenshotAsync(new PageScreenshotOptions { Path = path, FullPage = false });
        Assert.True(new FileInfo(path).Length > 10_000, "The screenshot is (nearly) empty.");
    }
}
