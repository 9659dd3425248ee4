using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class RunDetailTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    // Index, ok, duration, throttled, RU, p50, p99: a warm-up second, four steady ones, a short last one.
    private static readonly (int Index, long Ok, double Duration, long Throttled, double Ru, double P50, double P99)[] Seconds =
    [
        (0, 200, 1, 0, 1_000, 5, 40),
        (1, 1_000, 1, 10, 6_000, 4, 20),
        (2, 1_200, 1, 30, 7_000, 6, 25),
        (3, 1_100, 1, 0, 6_500, 3, 30),
        (4, 900, 1, 60, 5_500, 5, 22),
        (5, 100, 0.5, 0, 600, 7, 50),
    ];

    [Fact]
    public async Task Annotations_Save_StoresNotesAndNormalisedTags()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context);
        var view = RunChartModule.SetUp(context).View;
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        await page.Find("#run-notes").ChangeAsync("  Slow start: the container was new.  ");
        await page.Find("#run-tags").ChangeAsync("Gateway, 2 cores; gateway");
        await page.Find("#save-annotations").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        var run = await db.Runs.FindAsync(runId);
        Assert.Equal("Slow start: the container was new.", run!.Notes);
        Assert.Equal(",gateway,2 cores,", run.Tags);
        var markup = page.Markup;
        Assert.Contains("id=\"annotations-message\">Saved.<", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"run-tags\" type=\"text\" value=\"gateway, 2 cores\"", markup, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("notes \u0007", "gateway", "Notes: Contains a control character (U+0007)")]
    [InlineData("two lines\nare fine", "gate\u202Eway", "Tags: Contains a bidirectional-text control (U+202E)")]
    public async Task Annotations_Save_RefusesControlAndBidirectionalCharacters_AndStoresNothing(string notes, string tags, string expected)
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context);
        var view = RunChartModule.SetUp(context).View;
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        await page.Find("#run-notes").ChangeAsync(notes);
        await page.Find("#run-tags").ChangeAsync(tags);
        await page.Find("#save-annotations").ClickAsync(new MouseEventArgs());

        Assert.Contains(expected, page.Find("#annotations-message").TextContent, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = await db.Runs.FindAsync(runId);
        Assert.Equal((null, null), (run!.Notes, run.Tags));
    }

    [Fact]
    public async Task Window_FirstRender_ShowsTheDetectedWindowOnTheChartAndItsSummary()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context);
        var view = RunChartModule.SetUp(context).View;

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        Assert.Equal([1, 4], WindowCalls(view).Single());
        var markup = Compact(page.Markup);
        // Seconds 1–4: ok 1,000 + 1,200 + 1,100 + 900 over 4 s; RU 25,000 over 4 s; throttled 100 of 4,300 responses;
        // per-second p99 at most 30 ms; per-second p50s 3, 4, 5, 6 → nearest-rank median 4.
        Assert.Contains("data-window=\"seconds\">4<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"mean\">1,050.0inserts/s<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"p99-throughput\">1,200.0inserts/s<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"ru\">6,250<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"throttled\">2.33%<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"latency\">30.0ms/4.0ms<", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"window-origin\" class=\"badge detected\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Window_Changed_RecomputesTheSummarySavesItAndMovesTheBand()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context);
        var view = RunChartModule.SetUp(context).View;
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        await page.Find("#window-last").ChangeAsync("5");
        await page.Find("#window-first").ChangeAsync("3");

        Assert.Equal([[1, 4], [1, 5], [3, 5]], WindowCalls(view));
        var markup = Compact(page.Markup);
        // Seconds 3–5: ok 2,100 over 2.5 s; P99 over the full seconds (1,100 and 900); RU 12,600 over 2.5 s;
        // throttled 60 of 2,160 responses; per-second p99 at most 50 ms; p50s 3, 5, 7 → median 5.
        Assert.Contains("data-window=\"seconds\">3<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"mean\">840.0inserts/s<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"p99-throughput\">1,100.0inserts/s<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"ru\">5,040<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"throttled\">2.78%<", markup, StringComparison.Ordinal);
        Assert.Contains("data-window=\"latency\">50.0ms/5.0ms<", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"window-origin\" class=\"badge chosen\"", page.Markup, StringComparison.Ordinal);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.FindAsync(runId);
            Assert.Equal((3, 5), (run!.SteadyStateFirst, run.SteadyStateLast));
        }

        await page.Find("#reset-window").ClickAsync(new MouseEventArgs());

        Assert.Equal([1, 4], WindowCalls(view).Last());
        Assert.Contains("data-window=\"mean\">1,050.0inserts/s<", Compact(page.Markup), StringComparison.Ordinal);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.FindAsync(runId);
            Assert.Null(run!.SteadyStateFirst);
            Assert.Null(run.SteadyStateLast);
        }
    }

    [Fact]
    public async Task Window_OutOfRange_SaysWhyAndKeepsTheSavedWindow()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context, chosen: (2, 3));
        var view = RunChartModule.SetUp(context).View;
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));
        Assert.Equal([2, 3], WindowCalls(view).Single());

        await page.Find("#window-last").ChangeAsync("9");

        Assert.Contains("The window must satisfy 0 ≤ first ≤ last ≤ 5 (the last second of the run); got 2–9.", page.Markup, StringComparison.Ordinal);
        Assert.Single(WindowCalls(view));
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = await db.Runs.FindAsync(runId);
        Assert.Equal((2, 3), (run!.SteadyStateFirst, run.SteadyStateLast));
    }

    [Fact]
    public async Task Verdict_FailedCheck_IsShownWithItsMessage()
    {
        await using var context = new BenchWebComponentContext();
        var verdict = new Verdict
        {
            Passed = false,
            Checks =
            [
                new ThresholdCheck("completed", true, "the run completed"),
                new ThresholdCheck("throughput", false, "average throughput 750.0/s < 1,000.0/s"),
                new ThresholdCheck("p99 latency", true, "p99 latency 30.0 ms ≤ 500.0 ms"),
            ],
        };
        var runId = await SeedCompletedRunAsync(context, verdict: verdict);
        var view = RunChartModule.SetUp(context).View;

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        var markup = page.Markup;
        Assert.Contains("class=\"verdict failed\" id=\"run-verdict\"", markup, StringComparison.Ordinal);
        Assert.Contains("data-check=\"throughput\" data-passed=\"false\"", markup, StringComparison.Ordinal);
        Assert.Contains("average throughput 750.0/s &lt; 1,000.0/s", markup, StringComparison.Ordinal);
        Assert.Contains("data-check=\"completed\" data-passed=\"true\"", markup, StringComparison.Ordinal);
        Assert.Contains("data-verdict=\"Failed\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Detail_ImportedRun_ShowsWhereFromAndTheExportLinks()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedCompletedRunAsync(context, importedFrom: "build-agent-7, exported 2026-11-20");
        var view = RunChartModule.SetUp(context).View;

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setWindow"]));

        var markup = page.Markup;
        Assert.Contains(">imported from build-agent-7, exported 2026-11-20<", markup, StringComparison.Ordinal);
        Assert.Contains($"href=\"api/runs/{runId}/export.json\"", markup, StringComparison.Ordinal);
        Assert.Contains($"href=\"api/runs/{runId}/export.csv\"", markup, StringComparison.Ordinal);
    }

    private static int[][] WindowCalls(JSObjectSetup view) =>
        view.Interop.Invocations["setWindow"].Select(c => c.Arguments.Cast<int>().ToArray()).ToArray();

    // Formats differ by a space between cultures ("2.33 %"); the figures must not.
    private static string Compact(string markup) => markup.Replace(" ", "", StringComparison.Ordinal).Replace("\u00A0", "", StringComparison.Ordinal);

    private static async Task<long> SeedCompletedRunAsync(BenchWebComponentContext context, (int First, int Last)? chosen = null, Verdict? verdict = null, string? importedFrom = null)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var plan = new RunPlan { Name = "Detail test", Stop = new StopOptions { DurationSeconds = 6 } };
        var summary = new RunSummary
        {
            Elapsed = TimeSpan.FromSeconds(5.5),
            TotalOk = Seconds.Sum(s => s.Ok),
            AverageThroughput = Seconds.Sum(s => s.Ok) / 5.5,
            SteadyState = new SteadyStateWindow { FirstSecond = 1, LastSecond = 4, MeanThroughput = 1_050 },
        };
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = RunStatus.Completed,
            QueuedAt = Start,
            StartedAt = Start,
            EndedAt = Start.AddSeconds(6),
            TargetDescription = "Simulated Cosmos DB (model) · 10,000 RU/s · 1 partition",
            TargetIsModel = true,
            ProvisionedRequestUnits = 10_000,
            StopReason = "ran 6 s",
            SummaryJson = JsonSerializer.Serialize(summary, RunPlan.JsonOptions),
            SteadyStateFirst = chosen?.First,
            SteadyStateLast = chosen?.Last,
            Verdict = verdict is null ? null : verdict.Passed ? "Passed" : "Failed",
            VerdictJson = verdict is null ? null : JsonSerializer.Serialize(verdict, RunPlan.JsonOptions),
            ImportedAt = importedFrom is null ? null : Start.AddDays(1),
            ImportedFrom = importedFrom,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        foreach (var s in Seconds)
        {
            db.RunSeconds.Add(new RunSecondEntity
            {
                RunId = run.Id,
                Index = s.Index,
                ElapsedSeconds = s.Index + s.Duration,
                DurationSeconds = s.Duration,
                Ok = s.Ok,
                OkRequests = s.Ok,
                Throttled = s.Throttled,
                RequestUnits = s.Ru,
                LatencyP50Ms = s.P50,
                LatencyP99Ms = s.P99,
                ClosedAt = Start.AddSeconds(s.Index + s.Duration),
            });
        }

        await db.SaveChangesAsync();
        return run.Id;
    }
}
