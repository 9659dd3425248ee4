using BenchEngine.Diagnostics;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The run page's Slowest requests panel: each entry's second, latency, status, target and summary, its full text
/// behind a fold, and the points the latency chart draws for them.</summary>
[UnitTest]
public sealed class RunSlowRequestsDiagnosticsTests
{
    private static readonly SlowRequest Slow = new()
    {
        Second = 3,
        LatencyMs = 212.46,
        StatusCode = 201,
        Outcome = OutcomeKind.Ok,
        Attempts = 1,
        Target = "Cosmos DB (SQL API) · Gateway",
        Summary = "201 ok · 212.5 ms · SDK 210.1 ms · Gateway · regions: none named",
        Text = "{\"Summary\":{},\"name\":\"CreateItemStreamAsync\"}\n<script>alert(1)</script>",
    };

    private static readonly SlowRequest Failed = new()
    {
        Second = 7,
        LatencyMs = 1_500,
        StatusCode = 429,
        Outcome = OutcomeKind.Throttled,
        Attempts = 10,
        Target = "Cosmos DB (SQL API) · Gateway",
        Summary = "429 throttled, given up",
        Text = new string('x', 10) + "\n[truncated: …]",
        Truncated = true,
    };

    [Fact]
    public async Task Panel_ShowsEachEntrysSecondLatencyStatusTargetAndSummary_WithTheFullTextBehindAFold()
    {
        await using var context = new BenchWebComponentContext();

        var panel = context.Render<RunSlowRequests>(p => p.Add(x => x.Entries, [Slow, Failed]));

        var entries = panel.FindAll("#slow-requests li.slow-request");
        Assert.Equal(["3", "7"], entries.Select(e => e.GetAttribute("data-second")));
        var first = entries[0];
        Assert.Equal("second 3", first.QuerySelector(".slow-second")!.TextContent);
        Assert.Equal("212.5 ms", first.QuerySelector(".slow-latency")!.TextContent);
        Assert.Equal("201 ok", first.QuerySelector(".slow-status")!.TextContent);
        Assert.Equal(Slow.Target, first.QuerySelector(".slow-target")!.TextContent);
        Assert.Equal(Slow.Summary, first.QuerySelector(".slow-summary")!.TextContent);
        // The text is shown as text, never as markup, and folded until asked for.
        var fold = first.QuerySelector("details")!;
        Assert.False(fold.HasAttribute("open"));
        Assert.Equal(Slow.Text, fold.QuerySelector("pre.slow-text")!.TextContent);
        Assert.Empty(panel.FindAll("script"));
        Assert.Equal("429 throttled, given up · 10 attempts", entries[1].QuerySelector(".slow-status")!.TextContent);
        Assert.Contains("cut at 64 KB", entries[1].QuerySelector("details summary")!.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Panel_SaysNoneWereKept_ForARunWithoutEntries()
    {
        await using var context = new BenchWebComponentContext();

        var ended = context.Render<RunSlowRequests>(p => p.Add(x => x.Entries, []).Add(x => x.Active, false));
        var running = context.Render<RunSlowRequests>(p => p.Add(x => x.Entries, []).Add(x => x.Active, true));

        Assert.Contains("None were kept for this run", ended.Find("#slow-requests-none").TextContent, StringComparison.Ordinal);
        Assert.Contains("None kept yet", running.Find("#slow-requests-none").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunPage_ShowsTheRunsSavedEntries_AndHandsTheirPointsToTheLatencyChart()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Slow"), SeededRuns.Seconds(10, 100, 5));
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.RunDiagnostics.AddRange(RunDiagnosticEntity.From(runId, 0, 0, Failed), RunDiagnosticEntity.From(runId, 0, 1, Slow));
            await db.SaveChangesAsync();
        }

        var (_, view) = RunChartModule.SetUp(context);

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setSlowRequests"]));

        Assert.Equal(["3", "7"], page.FindAll("#slow-requests li.slow-request").Select(e => e.GetAttribute("data-second")));
        var points = System.Text.Json.JsonSerializer.Serialize(view.Interop.Invocations["setSlowRequests"][^1].Arguments[0]);
        Assert.Equal("""[{"second":3,"latencyMs":212.46},{"second":7,"latencyMs":1500}]""", points);
    }

    [Fact]
    public async Task RunPage_FollowsTheLiveFeedsSlowRequests_WithoutReadingThemAgain()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Slow"), SeededRuns.Seconds(10, 100, 5));
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.RunDiagnostics.AddRange(RunDiagnosticEntity.From(runId, 0, 0, Failed), RunDiagnosticEntity.From(runId, 0, 1, Slow));
            await db.SaveChangesAsync();
        }

        var (_, view) = RunChartModule.SetUp(context);
        var feed = context.Services.GetRequiredService<BenchWeb.Live.LiveFeed>();
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Equal(1, feed.SubscribersOf(BenchWeb.Live.LiveTopic.Run(runId))));
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["setSlowRequests"]));

        // The shard lets its entry 1 (second 3) go and keeps a slower one of second 5; another shard keeps one of second 5 too.
        // Neither is in the database: what the page shows came through the feed.
        var slower = RunDiagnosticEntity.From(runId, 0, 2, Slow with { Second = 5, LatencyMs = 900 });
        var otherShard = RunDiagnosticEntity.From(runId, 1, 1, Slow with { Second = 5, LatencyMs = 300 });
        feed.Publish(new BenchWeb.Live.SlowRequestsSaved(runId, 0, [slower], [1]));
        feed.Publish(new BenchWeb.Live.SlowRequestsSaved(runId, 1, [otherShard], []));
        // The same change again (as after catching up) adds nothing twice.
        feed.Publish(new BenchWeb.Live.SlowRequestsSaved(runId, 1, [otherShard], []));

        page.WaitForAssertion(() => Assert.Equal(
            ["5:900.0 ms", "5:300.0 ms", "7:1,500.0 ms"],
            page.FindAll("#slow-requests li.slow-request").Select(e => $"{e.GetAttribute("data-second")}:{e.QuerySelector(".slow-latency")!.TextContent}")));
        page.WaitForAssertion(() => Assert.Equal(
            """[{"second":5,"latencyMs":900},{"second":5,"latencyMs":300},{"second":7,"latencyMs":1500}]""",
            System.Text.Json.JsonSerializer.Serialize(view.Interop.Invocations["setSlowRequests"][^1].Arguments[0])));
    }
}
