using System.Text.RegularExpressions;
using System.Globalization;
using System.Net;
using BenchWeb.Tests.Support;
using CsvHelper;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>Two runs made in the browser, then compared: overlaid charts, the configuration diff, the results
/// table and the CSV downloads. Leaves <c>TestResults/screenshots/compare.png</c> beside the other screenshots.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class CompareBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(120);

    private WatchedPage? _watched;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, 1280, 900);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public async Task Compare_TwoRunsMadeInTheBrowser_OverlaysTheirChartsAndListsTheConcurrencyDifference()
    {
        try
        {
            var first = await RunAsync("E2E compare 4 workers", concurrency: 4, seconds: 3);
            var second = await RunAsync("E2E compare 8 workers", concurrency: 8, seconds: 4);

            // As a user does it: tick the two runs in the history list, baseline first, and press Compare.
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, "runs"));
            await Page.Locator($"[data-select-run='{first}']").CheckAsync();
            await Page.Locator($"[data-select-run='{second}']").CheckAsync();
            await Page.Locator("#compare-selected").ClickAsync();
            // The page's own navigation (no load event to wait for: a busy machine let it pass 30 s): its address, then its circuit.
            await Expect(Page).ToHaveURLAsync(new Regex("/compare\\?runs="), new() { Timeout = 60_000 });
            await DashboardPages.WaitForInteractiveAsync(Page);

            // Inserts, throttled, RU/s, latency p50 and latency p99.
            var charts = Page.Locator("#compare-charts");
            await Expect(charts).ToHaveAttributeAsync("data-series", "2");
            await Expect(charts.Locator("canvas")).ToHaveCountAsync(5);
            Assert.True(int.Parse(await charts.GetAttributeAsync("data-points") ?? "0", CultureInfo.InvariantCulture) >= 6, "Fewer points than the runs had seconds.");
            Assert.True(await Page.EvaluateAsync<bool>("() => [...document.querySelectorAll('#compare-charts canvas')].every(c => window.Chart.getChart(c)?.data.datasets.length === 2)"));

            var concurrency = Page.Locator("#config-diff tr[data-path='load.concurrency'] td");
            await Expect(concurrency).ToHaveTextAsync(["4", "8"]);
            await Expect(Page.Locator("#config-diff tbody[data-section='Load'] tr.section")).ToHaveTextAsync("Load");
            await Expect(Page.Locator("#comparison-table tr[data-row='avg-throughput'] .change")).ToHaveCountAsync(1);
            await Expect(Page.Locator("#share-url")).ToHaveValueAsync(new Uri(fixture.App.BaseAddress, $"compare?runs={first},{second}").ToString());

            Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, "compare.png");
            await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            Assert.True(new FileInfo(screenshot).Length > 10_000, "The screenshot is (nearly) empty.");

            await Page.Locator("#results-link").ClickAsync();
            await Expect(Page).ToHaveURLAsync(new Regex($"/results\\?runs={first},{second}$"), new() { Timeout = 60_000 });
            await Expect(Page.Locator("#results-table tbody tr[data-run]")).ToHaveCountAsync(2);
            Assert.StartsWith("| Run | Target |", await Page.Locator("#results-markdown").InputValueAsync(), StringComparison.Ordinal);

            await AssertDownloadsAsync(first, second);
            Assert.True(_watched!.Errors.Count == 0, string.Join('\n', _watched.Errors));
        }
        catch (Exception ex) when (_watched is not null)
        {
            Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, "compare-failure.png");
            await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            var output = fixture.App.Output;
            throw new InvalidOperationException(
                $"{ex.Message}\nPage: {Page.Url}\nScreenshot: {screenshot}\nBrowser errors: {string.Join('\n', _watched.Errors)}\n" +
                $"Dashboard output (end):\n{output[Math.Max(0, output.Length - 6_000)..]}", ex);
        }
    }

    private async Task<long> RunAsync(string name, int concurrency, int seconds)
    {
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(Page, fixture.App.BaseAddress, $"{name} {Guid.NewGuid().ToString("N")[..8]}", new Dictionary<string, string>
        {
            ["Load.Concurrency"] = concurrency.ToString(CultureInfo.InvariantCulture),
            ["Stop.DurationSeconds"] = seconds.ToString(CultureInfo.InvariantCulture),
        });
        await DashboardPages.WaitForStatusAsync(Page, "Completed", RunTimeout);
        return runId;
    }

    private async Task AssertDownloadsAsync(long first, long second)
    {
        using var http = await fixture.App.CreateSignedInClientAsync();

        using var compare = await http.GetAsync(new Uri($"compare.csv?runs={first},{second}", UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, compare.StatusCode);
        Assert.Equal("text/csv", compare.Content.Headers.ContentType?.MediaType);
        using (var csv = new CsvReader(new StringReader(await compare.Content.ReadAsStringAsync()), CultureInfo.InvariantCulture))
        {
            var runs = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().Select(r => long.Parse((string)r["RunId"], CultureInfo.InvariantCulture)).ToList();
            Assert.Equal([first, second], runs.Distinct().ToArray());
        }

        using var results = await http.GetAsync(new Uri($"results.csv?runs={first},{second}", UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, results.StatusCode);
        Assert.Equal(3, (await results.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);

        using var tooFew = await http.GetAsync(new Uri($"compare.csv?runs={first}", UriKind.Relative));
        Assert.Equal(HttpStatusCode.BadRequest, tooFew.StatusCode);
        Assert.Equal("application/problem+json", tooFew.Content.Headers.ContentType?.MediaType);
        Assert.Contains("Choose 2 to 5 runs", await tooFew.Content.ReadAsStringAsync(), StringComparison.Ordinal);

        using var unknown = await http.GetAsync(new Uri("results.csv?runs=987654", UriKind.Relative));
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
    }
}
