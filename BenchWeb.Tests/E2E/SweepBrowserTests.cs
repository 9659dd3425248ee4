using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>A sweep as a user makes one: a saved profile swept over six concurrencies from its page, followed on the
/// sweep page to its knee at 1,366 px. Leaves <c>TestResults/screenshots/sweep.png</c>.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class SweepBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private WatchedPage? _watched;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, 1366, 900);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public async Task ASixStepSweep_LaunchedFromItsProfile_RunsEveryStep_AndNamesTheKnee()
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        var plan = new RunPlan
        {
            Name = "E2E sweep",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 2_000, MedianLatencyMs = 10 } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 1 },
            // Long enough for a steady window (3 seconds or more) to judge each step on: a 2-second step is judged on its
            // run's p99, which one stall of a shared machine can triple.
            Stop = new StopOptions { DurationSeconds = 5 },
        };
        using var created = await http.PostAsync("api/profiles", new StringContent(JsonSerializer.Serialize(new { name = "E2E sweep", plan }, RunPlan.JsonOptions), System.Text.Encoding.UTF8, "application/json"));
        Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
        var profileId = JsonDocument.Parse(await created.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt64();

        await BrowserDiagnostics.RunAsync(Page, "sweep", () => _watched!.Errors, () => fixture.App.Output, async () =>
        {
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"profiles/{profileId}"));
            await Page.Locator("[id='Sweep.Values']").FillAsync("1, 2, 4, 8, 16, 32");
            await Page.Locator("[id='Sweep.Values']").DispatchEventAsync("change");
            await Page.Locator("#start-sweep").ClickAsync();
            await Page.WaitForURLAsync(new Regex("/sweeps/\\d+$"));
            await DashboardPages.WaitForInteractiveAsync(Page);

            await Page.Locator(".run-header [data-status='Completed']").WaitForAsync(new LocatorWaitForOptions { Timeout = 240_000 });
            // A step whose crossing of the rule the next one did not confirm is re-run, listed after it.
            await Expect(Page.Locator("#sweep-steps tbody tr[data-rerun='false']")).ToHaveCountAsync(6);
            await Expect(Page.Locator("#sweep-steps tbody tr.recommended")).ToHaveCountAsync(1);
            await Expect(Page.Locator("#sweep-knees .reason")).ToHaveCountAsync(1);
            await Expect(Page.Locator("#sweep-charts")).ToHaveAttributeAsync("data-points", "6");
            // Every line its own colour (p50 and p99, throttled and CPU were once one blue told apart by dashes only).
            Assert.Empty(await DashboardPages.ChartProblemsAsync(Page));

            // 2 000 RU/s at about 6 RU an insert and 10 ms: the service saturates near (2,000 / 6) × 0.010 ≈ 3 workers. On a
            // machine so busy that the client was the limit of some steps (their p99 and throughput the client's, not judged:
            // before the knee, or the ones after it that would have shown it), the knee may land elsewhere, and then the page
            // must say that the client was the limit.
            var recommended = (await Page.Locator("#sweep-steps tbody tr.recommended td:nth-child(3)").InnerTextAsync()).Trim();
            var clientLimited = await Page.Locator("#sweep-steps tbody tr[data-rerun='false']").EvaluateAllAsync<int>(
                "rows => rows.filter(r => r.querySelector('.badge.failed')).length");
            if (recommended is not ("2" or "4" or "8"))
            {
                Assert.True(clientLimited > 0, $"concurrency {recommended} recommended, and no step was client-limited");
                await Expect(Page.Locator("#sweep-knees .reason")).ToContainTextAsync(new Regex("client-limited|the client being the limit|the client, not the service"));
            }

            Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, "sweep.png");
            await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            Assert.True(new FileInfo(screenshot).Length > 10_000, "The screenshot is (nearly) empty.");
            await DocsScreenshots.TakeAsync(Page, "sweep", "#sweep-charts");
            Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The sweep page scrolls sideways at 1,366 px.");

            // Any two steps compare as runs.
            await Page.Locator("#sweep-steps tbody tr:nth-child(1) input[type=checkbox]").CheckAsync();
            await Page.Locator("#sweep-steps tbody tr:nth-child(6) input[type=checkbox]").CheckAsync();
            await Page.Locator("#compare-steps").ClickAsync();
            await Expect(Page).ToHaveURLAsync(new Regex("/compare\\?runs=\\d+,\\d+$"), new() { Timeout = 60_000 });
        });
        Assert.Empty(_watched!.Errors);
    }
}
