using Microsoft.Playwright;

namespace BenchWeb.Tests.Support;

/// <summary>A failing browser test leaves a screenshot and says what the browser and the dashboard reported.</summary>
internal static class BrowserDiagnostics
{
    /// <summary>Runs <paramref name="steps"/>; when one fails, rethrows with the page's address, a full-page screenshot
    /// (<paramref name="name"/><c>-failure.png</c>), the browser's errors and the end of the dashboard's output.</summary>
    public static async Task RunAsync(IPage? page, string name, Func<IEnumerable<string>> browserErrors, Func<string> dashboardOutput, Func<Task> steps)
    {
        try
        {
            await steps();
        }
        catch (Exception ex) when (page is not null)
        {
            Directory.CreateDirectory(E2E.DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(E2E.DashboardBrowserTests.ScreenshotDirectory, name + "-failure.png");
            try
            {
                await page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            }
            catch (PlaywrightException)
            {
                screenshot = "(none: the page is gone)";
            }

            var output = dashboardOutput();
            throw new InvalidOperationException(
                $"{ex.Message}\nPage: {page.Url}\nScreenshot: {screenshot}\nBrowser errors: {string.Join('\n', browserErrors())}\n" +
                $"Dashboard output (end):\n{output[Math.Max(0, output.Length - 6_000)..]}", ex);
        }
    }
}
