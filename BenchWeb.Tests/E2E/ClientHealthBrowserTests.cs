using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>A finished simulator run as Chromium shows it on a laptop's screen (1,366 px): its Client health chart drawn from
/// the seconds the run measured. Leaves <c>TestResults/screenshots/client-health.png</c>.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class ClientHealthBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private const int LaptopWidth = 1_366;

    private WatchedPage? _watched;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, LaptopWidth, 900);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public async Task AFinishedSimulatorRun_ShowsTheClientHealthChartWithPoints_WithoutSidewaysScrolling()
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        var plan = new RunPlan
        {
            Name = "E2E client health",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 50_000, MedianLatencyMs = 5 } },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 4 },
        };
        var runId = await ApiRuns.StartAsync(http, plan);

        await BrowserDiagnostics.RunAsync(Page, "client-health", () => _watched!.Errors, () => fixture.App.Output, async () =>
        {
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"runs/{runId}"));
            await DashboardPages.WaitForStatusAsync(Page, "Completed", TimeSpan.FromSeconds(60));

            // Once the page has the run's seconds, the chart is drawn from their client health: its canvas is shown, no note.
            await Expect(Page.Locator("#client-health")).ToHaveAttributeAsync("data-health", "measured");
            await Expect(Page.Locator("#client-health canvas")).ToBeVisibleAsync();
            await Expect(Page.Locator("#client-health .chart-note:visible")).ToHaveCountAsync(0);
            var points = await Page.EvaluateAsync<int[]>(
                "() => window.Chart.getChart(document.querySelector('canvas[data-chart=\"health\"]')).data.datasets.map(d => d.data.filter(p => p.y != null).length)");
            Assert.Equal(4, points.Length);
            Assert.All(points[1..], count => Assert.True(count > 0, $"A client health series has no point: {string.Join(", ", points)}."));

            // The same seconds as the other charts.
            var ranges = await Page.EvaluateAsync<double[]>(
                "() => [...document.querySelectorAll('#run-charts canvas')].map(c => window.Chart.getChart(c).scales.x.max)");
            Assert.Single(ranges.Distinct());

            Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The run page scrolls sideways at 1,366 px.");
            Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, "client-health.png");
            await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            Assert.True(new FileInfo(screenshot).Length > 10_000, "The screenshot is (nearly) empty.");
        });
        Assert.Empty(_watched!.Errors);
    }
}
