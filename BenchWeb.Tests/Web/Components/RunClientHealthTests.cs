using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

/// <summary>What a run page says of the client's health and of where every request ended, on seeded runs.</summary>
[UnitTest]
public sealed class RunClientHealthTests
{
    [Fact]
    public async Task HealthChart_IsDrawn_WhenTheRunsSecondsHaveClientHealth()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Healthy"), ClientHealthSeconds.Of(SeededRuns.Seconds(6, 1_000, 6)));

        var page = Render(context, runId);

        var chart = page.Find("#client-health");
        Assert.Equal("measured", chart.GetAttribute("data-health"));
        Assert.NotNull(chart.QuerySelector("canvas[data-chart='health']"));
    }

    [Fact]
    public async Task HealthChart_SaysNotMeasured_ForARunWhoseSecondsHaveNoClientHealth()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Before client health"), SeededRuns.Seconds(6, 1_000, 6));

        var page = Render(context, runId);

        var chart = page.Find("#client-health");
        Assert.Equal("unmeasured", chart.GetAttribute("data-health"));
        Assert.Equal("Client health: not measured for this run.", chart.QuerySelector("[data-note='unmeasured']")!.TextContent);
        Assert.Equal("not measured for this run", page.Find("[data-summary='worst-client-second']").TextContent);
    }

    [Fact]
    public async Task HealthChart_HasNothingToDraw_ForAQueuedRun()
    {
        await using var context = new BenchWebComponentContext();
        var plan = SeededRuns.Plan(TargetKind.Simulated, "Waiting");
        long runId;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = new RunEntity { ProfileName = plan.Name, PlanJson = plan.ToJson(), Status = RunStatus.Queued, TargetKind = TargetKind.Simulated, QueuedAt = SeededRuns.Start };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        var page = Render(context, runId);

        Assert.Equal("waiting", page.Find("#client-health").GetAttribute("data-health"));
        Assert.Empty(page.FindAll("#client-limited"));
        Assert.Empty(page.FindAll("#run-summary"));
    }

    [Fact]
    public async Task Summary_ListsTheClientLimitedSecondsInWords_AndSaysHowManyEachFigureLeftOut()
    {
        await using var context = new BenchWebComponentContext();
        var seconds = ClientHealthSeconds.Of(SeededRuns.Seconds(12, 1_000, 6), starved: [3, 4, 5]);
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Starved"), seconds);

        var page = Render(context, runId);

        var span = Assert.Single(page.FindAll("#client-limited li"));
        Assert.Equal("seconds 3–5: " + ClientHealthSeconds.StarvedReason, span.TextContent);
        Assert.EndsWith("(3 client-limited seconds left out)", page.Find("[data-summary='mean-per-second']").TextContent, StringComparison.Ordinal);
        Assert.EndsWith("(3 client-limited seconds left out)", page.Find("[data-summary='per-second']").TextContent, StringComparison.Ordinal);
        Assert.EndsWith("(3 client-limited seconds left out)", page.Find("[data-summary='steady-state']").TextContent, StringComparison.Ordinal);
        Assert.StartsWith("client-limited in 3 seconds", page.Find("[data-summary='client']").TextContent, StringComparison.Ordinal);
        Assert.Equal("second 3: " + ClientHealthSeconds.StarvedReason, page.Find("[data-summary='worst-client-second']").TextContent);
        // The steady-state window panel (seconds 0–10, the last second being partial) leaves them out too.
        Assert.Equal("11 (3 client-limited seconds left out of the figures below)", page.Find("[data-window='seconds']").TextContent);
    }

    [Fact]
    public async Task Summary_NamesTheWorstClientSecondsFigures_WhenTheClientWasNeverTheLimit()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Healthy"), ClientHealthSeconds.Of(SeededRuns.Seconds(6, 1_000, 6)));

        var page = Render(context, runId);

        // This process's CPU (41 % + the second's index) is the figure nearest its bound (85 %): highest in the last second.
        Assert.Equal("second 5: host CPU 45 %, this process 46 %, scheduling lag p99 1.5 ms", page.Find("[data-summary='worst-client-second']").TextContent);
        Assert.StartsWith("never the limit", page.Find("[data-summary='client']").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("#client-limited"));
        Assert.DoesNotContain("left out", page.Find("#run-summary").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Summary_ShowsEveryRequestsBucket_AndThatTheyAddUpToTheRequestsOffered()
    {
        await using var context = new BenchWebComponentContext();
        var seconds = ClientHealthSeconds.Accounted(SeededRuns.Seconds(5, 1_000, 0));
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.NoOp, "Open loop"), seconds);
        await OfferedAsync(context, runId, 12_500);

        var page = Render(context, runId);

        string Bucket(string name) => page.Find($"#run-accounting [data-bucket='{name}']").TextContent;
        var offered = seconds.Sum(s => s.Issued + s.Dropped + s.NotStarted);
        Assert.Equal(N(offered), Bucket("offered"));
        Assert.Equal(N(seconds.Sum(s => s.OkRequests)), Bucket("ok"));
        Assert.Equal("1", Bucket("given-up"));
        Assert.Equal("10", Bucket("errors"));
        Assert.Equal("3", Bucket("abandoned"));
        Assert.Equal("50", Bucket("dropped"));
        Assert.Equal("7", Bucket("not-started"));
        Assert.Equal("20", Bucket("sent-late"));
        var identity = page.Find("#run-accounting [data-accounts]");
        Assert.Equal("balance", identity.GetAttribute("data-accounts"));
        Assert.StartsWith($"Every request is in exactly one bucket: {N(offered)} offered = ", identity.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Summary_SaysTheBucketsDoNotAddUp_ForARunThatDidNotEndAsPlanned()
    {
        await using var context = new BenchWebComponentContext();
        // Five requests were still in flight when the agent's seconds stop: no bucket has them.
        var seconds = ClientHealthSeconds.Accounted(SeededRuns.Seconds(5, 1_000, 0));
        seconds[^1] = seconds[^1] with { Issued = seconds[^1].Issued + 5 };
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.NoOp, "Interrupted"), seconds, RunStatus.Interrupted,
            failureReason: "The agent running this run stopped answering.");

        var page = Render(context, runId);

        var identity = page.Find("#run-accounting [data-accounts]");
        Assert.Equal("open", identity.GetAttribute("data-accounts"));
        Assert.Contains("(5 without an outcome)", identity.TextContent, StringComparison.Ordinal);
        Assert.Contains("did not end as planned", identity.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Summary_SaysTheBucketsWereNotKept_ForARunMeasuredBeforeThem()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Older"), SeededRuns.Seconds(5, 1_000, 6));

        var page = Render(context, runId);

        Assert.Equal("not-kept", page.Find("#run-accounting [data-accounts]").GetAttribute("data-accounts"));
        Assert.Empty(page.FindAll("#run-accounting [data-bucket]"));
    }

    [Fact]
    public async Task StageTables_ShowEachStagesBucketsAndClientLimitedSeconds()
    {
        await using var context = new BenchWebComponentContext();
        var plan = SeededRuns.Plan(TargetKind.Simulated, "Staged") with
        {
            Load = new LoadOptions
            {
                Stages = [new LoadStage { DurationSeconds = 3, Concurrency = 2 }, new LoadStage { DurationSeconds = 3, Concurrency = 8 }],
            },
            Stop = new StopOptions(),
        };
        var seconds = ClientHealthSeconds.Of(ClientHealthSeconds.Accounted(SeededRuns.Seconds(6, 100, 5)), starved: [4]);
        var runId = await SeededRuns.AddAsync(context.Databases, plan, seconds);

        var page = Render(context, runId);

        Assert.Equal(["none", "1 s"], page.FindAll("#run-stages [data-stage-limited]").Select(c => c.TextContent));
        var rows = page.FindAll("#stage-accounting tr[data-stage-requests]");
        Assert.Equal(2, rows.Count);
        Assert.Equal(N(seconds.Take(3).Sum(s => s.Issued)), rows[0].QuerySelector("[data-bucket='sent']")!.TextContent);
        Assert.Equal("7", rows[1].QuerySelector("[data-bucket='not-started']")!.TextContent);
        Assert.Equal("3", rows[1].QuerySelector("[data-bucket='abandoned']")!.TextContent);
        Assert.All(rows, r => Assert.Equal("yes", r.QuerySelector("[data-stage-balance]")!.GetAttribute("data-stage-balance")));
    }

    [Theory]
    [InlineData(2, ClientHealthSeconds.StarvedReason)]
    [InlineData(0, null)]
    public async Task Tiles_SayWhyTheLastSecondWasClientLimited_WhileTheRunGoesOn(int starvedSecond, string? warning)
    {
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(documentLimit: null, durationSeconds: 60, provisionedRequestUnits: null);
        var seconds = ClientHealthSeconds.Of(SeededRuns.Seconds(3, 1_000, 6), starved: [starvedSecond]);
        state.Add(seconds.Select(s => RunSecondEntity.From(1, s, SeededRuns.Start.Add(s.Elapsed))));

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state).Add(t => t.Status, RunStatus.Running));

        // Shown only when the last second (2) was client-limited, with the summary's words for it.
        Assert.Equal(warning is null, tiles.Find("#client-bound").HasAttribute("hidden"));
        Assert.Equal(warning ?? "", tiles.Find("[data-tile='client-limit']").TextContent);
        Assert.Null(RunTileTexts.Of(state, RunStatus.Completed).ClientLimit);
    }

    private static string N(long value) => value.ToString("N0", CultureInfo.CurrentCulture);

    // The seeded summary of an open loop, with the rate its plan offered (as the engine's summary has it).
    private static async Task OfferedAsync(BenchWebComponentContext context, long runId, double rate)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = await db.Runs.FindAsync(runId);
        run!.SummaryJson = System.Text.Json.JsonSerializer.Serialize(run.ReadSummary()! with { OfferedRequestsPerSecond = rate }, RunPlan.JsonOptions);
        await db.SaveChangesAsync();
    }

    // The run page, once loaded, with the chart module it starts.
    private static IRenderedComponent<RunLive> Render(BenchWebComponentContext context, long runId)
    {
        var (module, _) = RunChartModule.SetUp(context);

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));
        return page;
    }
}
