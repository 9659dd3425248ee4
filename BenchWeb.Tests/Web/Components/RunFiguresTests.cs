using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support.Components;
using Bunit;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The summary and the live tiles show what is known, say what is not, and never show 0 for what does not apply.</summary>
[UnitTest]
public sealed class RunFiguresTests
{
    private static readonly RunSummary Measured = new()
    {
        Elapsed = TimeSpan.FromSeconds(30.04),
        TotalOk = 3_000,
        TotalOkRequests = 3_000,
        TotalIssued = 3_000,
        AverageThroughput = 100,
        P99PerSecondThroughput = 120,
        Top10PercentMeanThroughput = 118.5,
        Latency = new LatencySummary { Count = 3_000, P50Ms = 1, P75Ms = 2, P90Ms = 3, P95Ms = 4, P98Ms = 5, P99Ms = 6, P999Ms = 7, MaxMs = 8 },
        TotalRequestUnits = 15_000,
        RequestUnitsPerSecond = 500,
        RequestUnitsPerInsert = 5,
    };

    [Fact]
    public async Task Summary_ShowsThePercentileSet_TheTopSecondsMean_AndWhatPercentilesCover()
    {
        await using var context = new BenchWebComponentContext();

        var markup = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, Measured)).Markup;

        Assert.Contains("1.0 ms / 2.0 ms / 3.0 ms / 4.0 ms", markup, StringComparison.Ordinal);
        Assert.Contains("5.0 ms / 6.0 ms / 7.0 ms / 8.0 ms", markup, StringComparison.Ordinal);
        Assert.Contains("120.0/s · 118.5/s", markup, StringComparison.Ordinal);
        Assert.Contains("over successful operations; failed and throttled attempts are excluded", markup, StringComparison.Ordinal);
        Assert.Contains(">30.0 s<", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Summary_SaysNotApplicable_ForATargetWithoutRequestUnits_AndUnknown_WhenTheThroughputCouldNotBeRead()
    {
        await using var context = new BenchWebComponentContext();
        var table = Measured with { RequestUnitsReported = false, TotalRequestUnits = null, RequestUnitsPerSecond = null, RequestUnitsPerInsert = null };

        var tableMarkup = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, table)).Find("[data-summary=ru]").TextContent;
        var tableCost = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, table)).Find("[data-summary=cost]").TextContent;
        var unknownCost = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, Measured)).Find("[data-summary=cost]").TextContent;

        Assert.StartsWith("n/a", tableMarkup, StringComparison.Ordinal);
        Assert.DoesNotContain("0", tableMarkup, StringComparison.Ordinal);
        Assert.Equal("n/a", tableCost);
        Assert.StartsWith("unknown", unknownCost, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(3, "The per-second figures and the steady-state window leave them out (3 full seconds).")]
    [InlineData(0, "None was left out of the per-second figures or the steady-state window")]
    public async Task Summary_SaysWhetherTheClientLimitedSecondsWereLeftOut_AsTheyWere(int leftOut, string words)
    {
        // A run limited by its client in every full second keeps them (there is nothing else to measure with): the page must
        // not say they were left out.
        await using var context = new BenchWebComponentContext();
        var limited = Measured with { ClientLimitedSeconds = 3, PerSecondLeftOut = leftOut, ClientLimitedSpans = [new ClientLimitedSpan { FirstSecond = 0, LastSecond = 2, Reason = "the client was starved" }] };

        var hint = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, limited)).Find("[data-summary=client-limited-hint]").TextContent;

        Assert.Contains(words, hint, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Summary_ShowsDroppedAndGivenUp_AndTheOfferedRate()
    {
        await using var context = new BenchWebComponentContext();
        var open = Measured with { OfferedRequestsPerSecond = 200, AchievedRequestsPerSecond = 100, TotalDropped = 3_000, DroppedFraction = 0.5, TotalGivenUp = 12 };

        var page = context.Render<RunSummaryView>(p => p.Add(v => v.Summary, open));

        Assert.Equal("100.0 / 200.0 per s", page.Find("[data-summary=achieved]").TextContent);
        Assert.Equal("3,000 (50.00 % of the schedule)", page.Find("[data-summary=dropped]").TextContent);
        Assert.Contains("12 given up after their throttle retries ran out", page.Find("[data-summary=inserted]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tiles_SayNotApplicable_ForATargetWithoutRequestUnits_AndShowTheElapsedTimeAsTheSummaryDoes()
    {
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(null, 30, provisionedRequestUnits: null) { RequestUnitsReported = false };
        state.Add([new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 10, OkRequests = 10 }, new RunSecondEntity { Index = 1, ElapsedSeconds = 1.04, DurationSeconds = 0.04, Ok = 1, OkRequests = 1 }]);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state));

        Assert.Equal("n/a", tiles.Find("[data-tile=ru-per-insert]").TextContent);
        Assert.Equal("n/a", tiles.Find("[data-tile=cost]").TextContent);
        Assert.Equal("1.0 s", tiles.Find("[data-tile=elapsed]").TextContent);
        Assert.Empty(tiles.FindAll("[data-tile=elapsed-clock]"));
        Assert.Equal("10", tiles.Find("[data-tile=current-rate]").TextContent);
    }

    [Theory]
    [InlineData(RunStatus.Running, false)]
    [InlineData(RunStatus.Completed, true)]
    public async Task Tiles_OfAClosedLoop_FillOneRowOfEight_TheProgressBarTakingTwoColumnsOnlyOnceTheCurrentRateHasGone(RunStatus status, bool wide)
    {
        // Eight columns at 1,366 px: seven tiles and the bar over two when the run has ended, eight tiles while it runs (a ninth
        // column's worth would put one tile alone on a second row).
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(null, 60, provisionedRequestUnits: 400);
        state.Add([new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 10, OkRequests = 10 }]);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state).Add(t => t.Status, status));

        Assert.Equal(wide, tiles.Find("[data-tile=progress-tile]").ClassList.Contains("wide"));
        Assert.Equal(8, tiles.FindAll(".tile").Count + (wide ? 1 : 0));
    }

    [Fact]
    public async Task Tiles_PutTheClockReadingUnderTheSeconds_FromAMinuteOn()
    {
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(null, 120, provisionedRequestUnits: 400);
        state.Add([.. Enumerable.Range(0, 75).Select(i => new RunSecondEntity { Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = 10, OkRequests = 10 })]);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state));

        // "75.0 s (1:15)" on one line is wider than a tile on a 1,366 px screen: the clock reading goes under the seconds.
        Assert.Equal("75.0 s", tiles.Find("[data-tile=elapsed]").TextContent);
        Assert.Equal("1:15", tiles.Find("[data-tile=elapsed-clock]").TextContent);
    }

    [Fact]
    public async Task Tiles_SayUnknown_WhenTheProvisionedThroughputCouldNotBeRead_AndShowUnsentRequests()
    {
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(null, 30, provisionedRequestUnits: null) { OfferedRate = 200 };
        state.Add([new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 100, OkRequests = 100, Issued = 100, Dropped = 100, RequestUnits = 500 }]);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state));

        Assert.Equal("unknown", tiles.Find("[data-tile=cost]").TextContent);
        Assert.Equal("5.00", tiles.Find("[data-tile=ru-per-insert]").TextContent);
        Assert.Equal("100 / 200", tiles.Find("[data-tile=achieved-rate]").TextContent);
        Assert.Contains("100 due but not sent (50.0 %)", tiles.Find("[data-tile=dropped]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tiles_SayNotRecorded_NotZero_ForAnOpenLoopRunStoredBeforeSentRequestsWereCounted()
    {
        // Seconds saved before requests sent and due-but-not-sent were counted have both at 0 beside what landed.
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(null, 30, provisionedRequestUnits: null) { OfferedRate = 200 };
        state.Add([new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 100, OkRequests = 100, RequestUnits = 500 }]);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state));

        Assert.Equal("— / 200", tiles.Find("[data-tile=achieved-rate]").TextContent);
        Assert.DoesNotContain("0 due but not sent", tiles.Find("[data-tile=dropped]").TextContent, StringComparison.Ordinal);
        Assert.Contains("not recorded", tiles.Find("[data-tile=dropped]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tiles_ShowTheTextsTheRunnerSends_EachInTheElementItsNameNames()
    {
        // The chart module puts each text of a live second's RunTileTexts in the element whose data-tile is the
        // property's name in kebab case: the page's first render must use the same texts in the same elements.
        await using var context = new BenchWebComponentContext();
        var state = new RunLiveState(documentLimit: 10_000, durationSeconds: null, provisionedRequestUnits: 5_000) { OfferedRate = 1_200, ProvisionedAutoscale = true };
        state.Add([
            new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, Ok = 1_000, OkRequests = 1_000, Throttled = 100, Issued = 1_100, Dropped = 100, RequestUnits = 6_000, ClientCpuPercent = 40 },
            new RunSecondEntity { Index = 1, ElapsedSeconds = 2, DurationSeconds = 1, Ok = 1_100, OkRequests = 1_100, Throttled = 80, Errors = 2, GivenUp = 3, Issued = 1_180, Dropped = 20, RequestUnits = 6_600, ClientCpuPercent = 93 },
        ]);
        var texts = RunTileTexts.Of(state, RunStatus.Running);

        var tiles = context.Render<RunTiles>(p => p.Add(t => t.State, state).Add(t => t.Status, RunStatus.Running));

        var shown = typeof(RunTileTexts).GetProperties().Where(p => p.PropertyType == typeof(string)).ToList();
        Assert.Equal(14, shown.Count);
        foreach (var property in shown)
        {
            var name = System.Text.RegularExpressions.Regex.Replace(property.Name, "(?<!^)([A-Z])", "-$1").ToLowerInvariant();
            var text = Assert.IsType<string>(property.GetValue(texts));
            Assert.Equal(text, tiles.Find($"[data-tile={name}]").TextContent);
        }

        Assert.Equal("2,100", texts.TotalOk);
        Assert.Equal("180 throttled · 2 errors · 3 given up", texts.TotalOkDetail);
        // A second measured without client health is client-limited by this process's CPU alone (the summary's verdict).
        Assert.Equal("the client was busy: this process 93 %", texts.ClientLimit);
        Assert.True(texts.ThrottledWarn);
        Assert.True(texts.DroppedWarn);
        Assert.Equal(0.2102, texts.ProgressShare!.Value, 9);
        Assert.Null(tiles.Find("#client-bound").GetAttribute("hidden"));
        Assert.Contains("warn", tiles.Find("[data-tile=throttled]").ParentElement!.ClassName, StringComparison.Ordinal);
    }
}
