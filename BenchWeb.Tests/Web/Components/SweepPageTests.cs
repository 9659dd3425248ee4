using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Components.Pages.Sweeps;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Tests.Web.Sweeps;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class SweepPageTests
{
    private static readonly SweepOptions Sweep = SweepTableTests.ThreeValues;

    [Fact]
    public async Task SweepPage_StepReRun_IsListedAfterItsStepLinkedToItsRunWithWhy()
    {
        await using var context = new BenchWebComponentContext();
        var (sweepId, runs) = await SeedAsync(context);
        var module = JSObjectSetup.Module(context.JSInterop, SweepPage.ModulePath);
        module.Interop.SetupVoid("draw", _ => true).SetVoidResult();
        module.Interop.SetupVoid("release", _ => true).SetVoidResult();

        var page = context.Render<SweepPage>(p => p.Add(x => x.Id, sweepId));

        page.WaitForAssertion(() => Assert.Equal(4, page.FindAll("#sweep-steps tbody tr").Count));
        var rows = page.FindAll("#sweep-steps tbody tr");
        Assert.Equal(["false", "false", "true", "false"], rows.Select(r => r.GetAttribute("data-rerun")));
        var reRun = rows[2];
        Assert.Equal("1", reRun.GetAttribute("data-step"));
        Assert.Equal($"runs/{runs[2]}", reRun.QuerySelector("a")!.GetAttribute("href"));
        Assert.Equal("2 re-run", reRun.QuerySelector("a")!.TextContent);
        Assert.Equal("re-run: p99 rose past the rule at this step only; the re-run did not confirm it", reRun.QuerySelector("td.note")!.TextContent);
        Assert.Contains("recommended", reRun.ClassName, StringComparison.Ordinal);
        // The knee's step says so in its own cell; every column but the compare boxes has a heading.
        Assert.Equal("recommended", reRun.QuerySelector("td.step .badge.recommended")!.TextContent);
        Assert.Single(page.FindAll("#sweep-steps .badge.recommended"));
        Assert.All(page.FindAll("#sweep-steps thead th").Skip(1), th => Assert.False(string.IsNullOrWhiteSpace(th.TextContent)));
        Assert.Equal(page.FindAll("#sweep-steps thead th").Count, rows[0].QuerySelectorAll("td").Length);
        Assert.Equal($"runs/{runs[1]}", rows[1].QuerySelector("a")!.GetAttribute("href"));
        Assert.Contains("3 of 3 steps run, 1 re-run", System.Text.RegularExpressions.Regex.Replace(page.Find("#sweep-description").TextContent, "\\s+", " "), StringComparison.Ordinal);
        var note = page.Find("#sweep-knees .knee-notes li");
        Assert.Equal("true", note.GetAttribute("data-rerun"));
        Assert.Equal("Step 2 (re-run): re-run: p99 rose past the rule at this step only; the re-run did not confirm it", note.TextContent);

        // The charts draw each value once: from the run the knee judged.
        var draw = Assert.Single(module.Interop.Invocations["draw"]).Arguments;
        Assert.Contains("\"throughput\":210", JsonSerializer.Serialize(draw[1]), StringComparison.Ordinal);
        Assert.DoesNotContain("\"throughput\":200", JsonSerializer.Serialize(draw[1]), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SweepPage_StepThatWarmedUp_SaysWhichRateEachColumnIs_AndTheHeadroomAsItsReasonDoes()
    {
        await using var context = new BenchWebComponentContext();
        var module = JSObjectSetup.Module(context.JSInterop, SweepPage.ModulePath);
        module.Interop.SetupVoid("draw", _ => true).SetVoidResult();
        module.Interop.SetupVoid("release", _ => true).SetVoidResult();
        // One step: 538.7/s on average at 3,232 RU/s (its run's figures), 628/s at 3,768 RU/s over its steady seconds, of
        // 4,000 provisioned: 5.8 % headroom there (19.2 % over the whole run).
        var summary = BenchWeb.Tests.Engine.Sweeps.KneeDetectorTests.WarmedUp();
        var sweepOptions = new SweepOptions { Setting = "Load.Concurrency", Values = ["4"] };
        var step = SweepStepResult.From(new SweepStep(0, null, "4", new RunPlan()), RunStatus.Completed, summary);
        var knees = KneeDetector.Find([step], sweepOptions.Knee, sweepOptions.Setting);
        long sweepId;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var plan = new RunPlan { Name = "swept", Stop = new StopOptions { DurationSeconds = 10 } };
            var sweep = new SweepEntity
            {
                Name = "swept", PlanJson = plan.ToJson(), SweepJson = JsonSerializer.Serialize(sweepOptions, RunPlan.JsonOptions), Status = RunStatus.Completed,
                QueuedAt = SteppedClock.Start, KneeJson = JsonSerializer.Serialize(knees, RunPlan.JsonOptions), StopReason = "1 step ran",
            };
            db.Sweeps.Add(sweep);
            await db.SaveChangesAsync();
            db.Runs.Add(new RunEntity
            {
                ProfileName = "swept", PlanJson = plan.ToJson(), Status = RunStatus.Completed, TargetKind = plan.Target.Kind, QueuedAt = SteppedClock.Start,
                SweepId = sweep.Id, SweepStep = 0, SummaryJson = JsonSerializer.Serialize(summary, RunPlan.JsonOptions),
            });
            await db.SaveChangesAsync();
            sweepId = sweep.Id;
        }

        var page = context.Render<SweepPage>(p => p.Add(x => x.Id, sweepId));

        page.WaitForAssertion(() => Assert.Single(page.FindAll("#sweep-steps tbody tr")));
        var headings = page.FindAll("#sweep-steps thead th").Select(th => th.TextContent).ToList();
        var row = page.Find("#sweep-steps tbody tr");
        string Cell(string heading) => row.QuerySelectorAll("td")[headings.IndexOf(heading)].TextContent;
        Assert.Equal("539/s", Cell("Average throughput"));
        Assert.Equal("3,232", Cell("RU/s (avg)"));
        Assert.Equal("628/s", Cell("Steady rate"));
        Assert.Equal("3,768 RU/s over the same seconds", row.QuerySelectorAll("td")[headings.IndexOf("Steady rate")].GetAttribute("title"));
        var knee = Assert.Single(knees);
        Assert.Equal(5.8, knee.HeadroomPercent!.Value, 6);
        Assert.Equal("5.8 %", page.Find("#sweep-knees [data-knee=headroom]").TextContent);
        Assert.Contains("at 628 inserts/s over its steady window", System.Text.RegularExpressions.Regex.Replace(page.Find("#sweep-knees .knee p").TextContent, "\\s+", " "), StringComparison.Ordinal);
    }

    private static async Task<(long SweepId, long[] Runs)> SeedAsync(BenchWebComponentContext context)
    {
        var results = SweepTableTests.ReRunResults();
        var knees = KneeDetector.Find(results, Sweep.Knee, Sweep.Setting);
        var plan = new RunPlan { Name = "swept", Stop = new StopOptions { DurationSeconds = 10 } };
        await using var db = await context.Databases.CreateDbContextAsync();
        var sweep = new SweepEntity
        {
            Name = "swept", PlanJson = plan.ToJson(), SweepJson = JsonSerializer.Serialize(Sweep, RunPlan.JsonOptions), Status = RunStatus.Completed,
            QueuedAt = SteppedClock.Start, KneeJson = JsonSerializer.Serialize(knees, RunPlan.JsonOptions), StopReason = "3 steps ran, 1 re-run",
        };
        db.Sweeps.Add(sweep);
        await db.SaveChangesAsync();
        var runs = results.Select(r => new RunEntity
        {
            ProfileName = r.IsReRun ? SweepOptions.ReRunName("swept") : "swept",
            PlanJson = plan.ToJson(),
            Status = RunStatus.Completed,
            TargetKind = plan.Target.Kind,
            QueuedAt = SteppedClock.Start,
            SweepId = sweep.Id,
            SweepStep = r.Index,
            SummaryJson = JsonSerializer.Serialize(new RunSummary { MeanPerSecondThroughput = r.Throughput, AverageThroughput = r.Throughput, Elapsed = TimeSpan.FromSeconds(10) }, RunPlan.JsonOptions),
        }).ToList();
        foreach (var run in runs)
        {
            // One at a time, so the re-run's id follows its step's.
            db.Runs.Add(run);
            await db.SaveChangesAsync();
        }

        return (sweep.Id, [.. runs.Select(r => r.Id)]);
    }
}
