using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>A finished simulator run's Slowest requests as Chromium shows them: each kept request a point on the latency chart,
/// and a click on one marks that second's entries in the panel and scrolls to them.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class SlowRequestDiagnosticsBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private WatchedPage? _watched;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, 1_366, 900);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public async Task AClickOnAKeptRequestsPoint_MarksThatSecondsEntries()
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        var plan = new RunPlan
        {
            Name = "E2E slowest requests",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 50_000, MedianLatencyMs = 5 } },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 4 },
        };
        var runId = await ApiRuns.StartAsync(http, plan);

        await BrowserDiagnostics.RunAsync(Page, "slow-requests", () => _watched!.Errors, () => fixture.App.Output, async () =>
        {
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"runs/{runId}"));
            await DashboardPages.WaitForStatusAsync(Page, "Completed", TimeSpan.FromSeconds(60));
            await Expect(Page.Locator("#slow-requests li.slow-request").First).ToBeVisibleAsync();
            var entries = await Page.Locator("#slow-requests li.slow-request").CountAsync();

            // One point a kept request on the latency chart; the second one's place on the canvas, to click.
            var latency = Page.Locator("canvas[data-chart=\"latency\"]");
            await Page.WaitForFunctionAsync($"() => window.Chart.getChart(document.querySelector('canvas[data-chart=\"latency\"]')).getDatasetMeta(2).data.length === {entries}");
            var point = await Page.EvaluateAsync<double[]>(
                "() => { const c = window.Chart.getChart(document.querySelector('canvas[data-chart=\"latency\"]')); const p = c.getDatasetMeta(2).data[1]; return [p.x, p.y, c.data.datasets[2].data[1].second]; }");
            // Each point at its second's end as measured, inside the chart: a last, partial second's is not past the axis's end.
            var outside = await Page.EvaluateAsync<string>(
                "() => { const c = window.Chart.getChart(document.querySelector('canvas[data-chart=\"latency\"]')); const m = c.getDatasetMeta(2).data; return c.data.datasets[2].data.map((d, i) => [d, m[i]]).filter(([d, p]) => !(p.x >= c.chartArea.left - 0.5 && p.x <= c.chartArea.right + 0.5)).map(([d, p]) => `second ${d.second} at ${d.x} (${p.x} px; ${c.chartArea.left}-${c.chartArea.right}, max ${c.scales.x.max})`).join('; '); }");
            Assert.Equal("", outside);
            await latency.ClickAsync(new LocatorClickOptions { Position = new Position { X = (float)point[0], Y = (float)point[1] } });

            var second = (int)point[2];
            await Expect(Page.Locator("#slow-requests")).ToHaveAttributeAsync("data-picked", second.ToString(System.Globalization.CultureInfo.InvariantCulture));
            var picked = Page.Locator("#slow-requests li.slow-request[data-picked]");
            await Expect(picked).ToHaveCountAsync(await Page.Locator($"#slow-requests li.slow-request[data-second=\"{second}\"]").CountAsync());
            await Expect(picked.First).ToBeInViewportAsync();
            await picked.First.Locator("details summary").ClickAsync();
            await Expect(picked.First.Locator("pre.slow-text")).ToContainTextAsync("Simulated");
        });
        Assert.Empty(_watched!.Errors);
    }
}
