using System.Net.Http.Json;
using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>A run in stages as Chromium shows it at 1,366 px: its stage table and its stages drawn as bands on the charts.
/// Leaves <c>TestResults/screenshots/stages.png</c>.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class StagesBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
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
    public async Task AStagedRun_ShowsAStageTableThatAddsUp_AndItsStagesOnTheCharts()
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        var plan = new RunPlan
        {
            Name = "E2E stages",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000, MedianLatencyMs = 10 } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions
            {
                Concurrency = 8,
                Stages =
                [
                    new LoadStage { DurationSeconds = 2, Concurrency = 2 },
                    new LoadStage { DurationSeconds = 3, Concurrency = 8, Ramp = StageRamp.Linear },
                ],
            },
            Stop = new StopOptions { DurationSeconds = null },
        };
        var runId = await ApiRuns.StartAsync(http, plan);

        await BrowserDiagnostics.RunAsync(Page, "stages", () => _watched!.Errors, () => fixture.App.Output, async () =>
        {
            await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"runs/{runId}"));
            await DashboardPages.WaitForStatusAsync(Page, "Completed", TimeSpan.FromSeconds(60));
            await Expect(Page.Locator("#run-stages table[data-stages]")).ToHaveAttributeAsync("data-stages", "2");
            var run = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}");
            var stages = run.GetProperty("summary").GetProperty("stages").EnumerateArray().ToList();
            Assert.Equal(2, stages.Count);
            Assert.Equal(run.GetProperty("summary").GetProperty("totalOk").GetInt64(), stages.Sum(s => s.GetProperty("ok").GetInt64()));

            // The CSV export says which stage each second belongs to.
            var csv = (await http.GetStringAsync($"api/runs/{runId}/export.csv")).Split('\n', StringSplitOptions.RemoveEmptyEntries);
            // The client-health columns follow it; the words of a client-limited second (quoted, with commas) come after it too.
            var stageColumn = Array.IndexOf(csv[0].TrimEnd('\r').Split(','), "stage");
            Assert.True(stageColumn > 0, csv[0]);
            var stageOfSecond = csv[1..].Select(line => line.TrimEnd('\r').Split(',')).ToDictionary(cells => int.Parse(cells[0], System.Globalization.CultureInfo.InvariantCulture), cells => cells[stageColumn]);
            Assert.Equal("1", stageOfSecond[0]);
            Assert.Equal("2", stageOfSecond[3]);

            // Every chart knows the two stages it draws as bands.
            Assert.True(await Page.EvaluateAsync<bool>("() => [...document.querySelectorAll('#run-charts canvas')].every(c => (window.Chart.getChart(c)?.$benchWebStages ?? []).length === 2)"),
                "A chart does not have the run's two stages to draw.");
            await Expect(Page.Locator("#run-settings tr[data-path='load.stages'] td")).ToHaveTextAsync("2 s at 2 workers; 3 s ramping to 8 workers");
            Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
            var screenshot = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, "stages.png");
            await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
            Assert.True(new FileInfo(screenshot).Length > 10_000, "The screenshot is (nearly) empty.");
        });
        Assert.Empty(_watched!.Errors);
    }
}
