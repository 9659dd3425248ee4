using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

/// <summary>A staged run's page: its stages' figures in a table and as bands on the charts.</summary>
[UnitTest]
public sealed class RunStagesTests
{
    [Fact]
    public async Task RunPage_ShowsAStageTableWhoseDocumentsAddUp_AndPassesTheStagesToTheCharts_ForAStagedRun()
    {
        await using var context = new BenchWebComponentContext();
        var plan = SeededRuns.Plan(TargetKind.Simulated, "Staged") with
        {
            Load = new LoadOptions
            {
                Stages =
                [
                    new LoadStage { DurationSeconds = 4, Concurrency = 2 },
                    new LoadStage { DurationSeconds = 4, Concurrency = 20, Ramp = StageRamp.Linear },
                    new LoadStage { DurationSeconds = 4, Concurrency = 5 },
                ],
            },
            Stop = new StopOptions(),
        };
        var seconds = SeededRuns.Seconds(12, 100, 5);
        var runId = await SeededRuns.AddAsync(context.Databases, plan, seconds);
        var (module, _) = RunChartModule.SetUp(context);

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll("#run-stages tr[data-stage]")));

        var rows = page.FindAll("#run-stages tr[data-stage]");
        Assert.Equal(3, rows.Count);
        Assert.Equal(["0–3", "4–7", "8–11"], rows.Select(r => r.Children[1].TextContent));
        var documents = rows.Sum(r => long.Parse(r.QuerySelector("[data-stage-ok]")!.TextContent, System.Globalization.NumberStyles.AllowThousands, System.Globalization.CultureInfo.CurrentCulture));
        Assert.Equal(seconds.Sum(s => s.Ok), documents);
        var options = System.Text.Json.JsonSerializer.Serialize(module.Interop.Invocations["start"].Single().Arguments[1]);
        Assert.Contains("\"label\":\"2: \\u2192 20 workers\"", options, StringComparison.Ordinal);
    }
}
