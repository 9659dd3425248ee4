using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

public sealed partial class DashboardBrowserTests
{
    [Fact]
    public Task RunCharts_LeaveAGapForASecondWithoutSuccess_AndHaveNoRequestUnitsForTableStorage() => WithDiagnosticsAsync("measurement-gaps", async () =>
    {
        // Five seconds of a Table Storage run; in the third nothing succeeded, so it has no latency.
        var start = DateTimeOffset.UtcNow.AddSeconds(-10);
        long runId;
        await using (var db = OpenAppDatabase())
        {
            var run = new RunEntity
            {
                ProfileName = Unique("E2E gaps"),
                PlanJson = new RunPlan { Name = "gaps", Target = new TargetOptions { Kind = TargetKind.TableStorage }, Stop = new StopOptions { DurationSeconds = 5 } }.ToJson(),
                TargetKind = TargetKind.TableStorage,
                Status = RunStatus.Completed,
                QueuedAt = start,
                StartedAt = start,
                EndedAt = start.AddSeconds(5),
                TargetDescription = "Azure Table Storage",
                RequestUnitsReported = false,
            };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            for (var i = 0; i < 5; i++)
            {
                var failed = i == 2;
                db.RunSeconds.Add(new RunSecondEntity
                {
                    RunId = run.Id, Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = failed ? 0 : 100, OkRequests = failed ? 0 : 100, Errors = failed ? 5 : 0,
                    LatencyP50Ms = failed ? null : 5, LatencyP99Ms = failed ? null : 40, ClosedAt = start.AddSeconds(i + 1),
                });
            }

            await db.SaveChangesAsync();
            runId = run.Id;
        }

        await DashboardPages.GotoAsync(Page, App($"runs/{runId}"));
        await Page.WaitForFunctionAsync("() => Number(document.querySelector('#run-charts')?.dataset.points ?? 0) === 5");

        var p50 = await Page.EvaluateAsync<double?[]>("() => window.benchWeb.view.charts.latency.data.datasets[0].source.map(p => p.y)");
        var p99 = await Page.EvaluateAsync<double?[]>("() => window.benchWeb.view.charts.latency.data.datasets[1].source.map(p => p.y)");
        var requestUnits = await Page.EvaluateAsync<double?[]>("() => window.benchWeb.view.charts.ru.data.datasets[0].source.map(p => p.y)");
        var ruTitle = await Page.EvaluateAsync<string>("() => window.benchWeb.view.charts.ru.options.plugins.title.text");
        Assert.Equal([5, 5, null, 5, 5], p50);
        Assert.Equal([40, 40, null, 40, 40], p99);
        Assert.All(requestUnits, Assert.Null);
        Assert.Contains("n/a", ruTitle, StringComparison.Ordinal);
        await Expect(Page.Locator("[data-tile='ru-per-insert']")).ToHaveTextAsync("n/a");
        AssertNoBrowserErrors();
    });
}
