using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Integration.Fleet;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>A fleet of two agents seen in Chromium at 1,366 px: the Agents page, and the page of a run spread over both
/// (its combined chart and its row per agent).</summary>
[BrowserTest]
[Slow]
[Collection(DashboardBrowserCollection.Name)]
public sealed class SharedModeBrowserTests
{
    [Fact]
    public async Task ARunOverTwoAgents_ShowsOneChart_AndARowPerAgent_ThatAddUpToTheRun()
    {
        await using var fleet = await SharedModeFleet.StartAsync();
        var first = await fleet.AddAsync("agent-a");
        await fleet.AddAsync("agent-b");
        using var http = await first.CreateSignedInClientAsync();
        await SharedModeFleet.WaitForAgentsAsync(http, 2);
        var runId = await SharedModeFleet.LaunchAsync(http, new RunPlan
        {
            Name = "two agents in the browser",
            Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 4_000, MedianLatencyMs = 10 } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = new LoadOptions { Concurrency = 8, Agents = 2 },
            Stop = new StopOptions { DurationSeconds = 6 },
        }, first);

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        await using var context = await DashboardPages.NewSignedInContextAsync(browser, first, new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = 1366, Height = 900 } });
        var page = await context.NewPageAsync();
        var errors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                errors.Add(message.Text);
            }
        };

        await BrowserDiagnostics.RunAsync(page, "shared-mode", () => errors, () => first.Output, async () =>
        {
            await DashboardPages.GotoAsync(page, new Uri(first.BaseAddress, $"runs/{runId}"));
            await DashboardPages.WaitForStatusAsync(page, "Completed", TimeSpan.FromSeconds(60));
            var rows = page.Locator("#run-agents-table tbody tr");
            await Expect(rows).ToHaveCountAsync(2);
            // Each agent by its name and the start of its id (two machines may share a name).
            await Expect(rows.Locator("td:nth-child(2)")).ToHaveTextAsync([new Regex("^agent-a [0-9a-f]{8}$"), new Regex("^agent-b [0-9a-f]{8}$")]);
            var run = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}");
            var total = run.GetProperty("summary").GetProperty("totalOk").GetInt64();
            await Expect(page.Locator("#run-agents-ok")).ToHaveTextAsync(total.ToString("N0", System.Globalization.CultureInfo.CurrentCulture));
            // Every second of the combined run is drawn once it has ended, pushed live or not: as many points as it has
            // seconds (from the first second an agent measured; on a busy machine an agent can join seconds late).
            var seconds = run.GetProperty("secondsRecorded").GetInt32();
            Assert.True(seconds >= 3, $"The run saved {seconds} second(s).");
            await Expect(page.Locator("#run-charts")).ToHaveAttributeAsync("data-points", seconds.ToString(System.Globalization.CultureInfo.InvariantCulture));
            await Screenshot(page, "run-over-agents.png");

            await DashboardPages.GotoAsync(page, new Uri(first.BaseAddress, "agents"));
            await Expect(page.Locator("#agents tbody tr")).ToHaveCountAsync(2);
            await Expect(page.Locator("#agents tbody tr.agent-alive")).ToHaveCountAsync(2);
            var ids = await page.Locator("#agents tbody tr .agent-id").AllInnerTextsAsync();
            Assert.Equal(2, ids.Distinct().Count(id => System.Text.RegularExpressions.Regex.IsMatch(id, "^[0-9a-f]{8}$")));
            await Screenshot(page, "agents.png");

            // Nothing wider than the window at 1,366 px.
            Assert.True(await page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The Agents page scrolls sideways at 1,366 px.");
        });
        Assert.Empty(errors);
    }

    private static async Task Screenshot(IPage page, string name)
    {
        Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
        var path = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, name);
        await page.ScreenshotAsync(new PageScreenshotOptions { Path = path, FullPage = true });
        Assert.True(new FileInfo(path).Length > 10_000, "The screenshot is (nearly) empty.");
    }
}
