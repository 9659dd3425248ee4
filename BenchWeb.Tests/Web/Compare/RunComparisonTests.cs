using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchWeb.Compare;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using CsvHelper;

namespace BenchWeb.Tests.Web.Compare;

[UnitTest]
public sealed class RunComparisonTests
{
    [Fact]
    public async Task Rows_ShowChangeAgainstTheFirstRun_InPercentAndAbsolute()
    {
        await using var context = new BenchWebComponentContext();
        var baseline = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("baseline"), CompareSeed.Environment(), Summary(throughput: 1_000, p99: 50, throttled: 0));
        var faster = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("faster"), CompareSeed.Environment(), Summary(throughput: 1_123, p99: 48, throttled: 0.01));
        var slower = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("slower"), CompareSeed.Environment(), Summary(throughput: 850, p99: 50, throttled: 0));

        var comparison = await LoadAsync(context, baseline, faster, slower);

        var throughput = Row(comparison, "avg-throughput");
        Assert.Equal(["1,000.0", "1,123.0", "850.0"], throughput.Texts);
        Assert.Null(throughput.Changes[0]);
        // (1,123 − 1,000) ÷ 1,000 = +12.3 %; (850 − 1,000) ÷ 1,000 = −15.0 %.
        Assert.Equal(123, throughput.Changes[1]!.Absolute, 9);
        Assert.Equal(12.3, throughput.Changes[1]!.Percent!.Value, 9);
        Assert.Equal("+12.3 %", throughput.Changes[1]!.FormatPercent());
        Assert.Equal("+123.0", throughput.Changes[1]!.FormatAbsolute(throughput.Format));
        Assert.Equal("\u221215.0 %", throughput.Changes[2]!.FormatPercent());
        Assert.Equal("\u2212150.0", throughput.Changes[2]!.FormatAbsolute(throughput.Format));

        // 48 ms against 50 ms: −2 ms, −4.0 %; unchanged is unsigned.
        var latency = Row(comparison, "latency-p99");
        Assert.Equal("\u22124.0 %", latency.Changes[1]!.FormatPercent());
        Assert.Equal("\u22122.0", latency.Changes[1]!.FormatAbsolute(latency.Format));
        Assert.Equal("0.0 %", latency.Changes[2]!.FormatPercent());
        Assert.False(latency.HigherIsBetter);

        // From 0 % throttled to 1 %: a percentage of nothing is not shown; the absolute change is.
        var throttled = Row(comparison, "throttled");
        Assert.Equal(["0.00", "1.00", "0.00"], throttled.Texts);
        Assert.Null(throttled.Changes[1]!.Percent);
        Assert.Equal("—", throttled.Changes[1]!.FormatPercent());
        Assert.Equal("+1.00", throttled.Changes[1]!.FormatAbsolute(throttled.Format));
        Assert.Equal("0.0 %", throttled.Changes[2]!.FormatPercent());
        Assert.Equal("0.00", throttled.Changes[2]!.FormatAbsolute(throttled.Format));

        Assert.Equal(["584.00", "584.00", "584.00"], Row(comparison, "cost-per-month").Texts);
        Assert.Equal(["Completed", "Completed", "Completed"], Row(comparison, "status").Texts);
    }

    [Fact]
    public async Task Rows_ShowDash_ForARunWithoutSummary()
    {
        await using var context = new BenchWebComponentContext();
        var done = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("done"), null, Summary(throughput: 500, p99: 10, throttled: 0));
        var running = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("running"), null, null, status: BenchEngine.Running.RunStatus.Running);

        var comparison = await LoadAsync(context, done, running);

        Assert.Equal(["500.0", "—"], Row(comparison, "avg-throughput").Texts);
        Assert.Null(Row(comparison, "avg-throughput").Changes[1]);
    }

    [Fact]
    public async Task Rows_ShowThePartialFiguresOfAnInterruptedRun_WithoutTheLatencyItDidNotKeep()
    {
        await using var context = new BenchWebComponentContext();
        var done = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("done"), null, Summary(throughput: 500, p99: 10, throttled: 0));
        var seconds = SeededRuns.Seconds(10, 2_000, 6);
        var partial = SummaryCalculator.Calculate(seconds, new LatencyDistribution());
        var interrupted = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("interrupted"), null, partial, status: BenchEngine.Running.RunStatus.Interrupted);

        var comparison = await LoadAsync(context, done, interrupted);

        Assert.Equal("Interrupted · partial", Row(comparison, "status").Texts[1]);
        Assert.Equal(partial.AverageThroughput.ToString("N1", CultureInfo.InvariantCulture), Row(comparison, "avg-throughput").Texts[1]);
        Assert.Equal("—", Row(comparison, "latency-p99").Texts[1]);
        Assert.Null(Row(comparison, "latency-p99").Changes[1]);
    }

    [Fact]
    public async Task Rows_SayNotApplicable_ForTableStorage_AndUnknown_ForAThroughputThatCouldNotBeRead_NeverZero()
    {
        await using var context = new BenchWebComponentContext();
        var tables = await CompareSeed.AddRunAsync(context.Databases, new BenchEngine.Running.RunPlan { Name = "tables", Target = new BenchEngine.Targets.TargetOptions { Kind = BenchEngine.Targets.TargetKind.TableStorage } }, null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, AverageThroughput = 10, RequestUnitsReported = false });
        var cosmos = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("cosmos"), null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, AverageThroughput = 10, TotalRequestUnits = 500, RequestUnitsPerSecond = 50, RequestUnitsPerInsert = 5 });

        var comparison = await LoadAsync(context, tables, cosmos);

        Assert.Equal(["n/a", "50"], Row(comparison, "ru-per-second").Texts);
        Assert.Equal(["n/a", "5.00"], Row(comparison, "ru-per-insert").Texts);
        Assert.Equal(["n/a", "unknown"], Row(comparison, "cost-per-month").Texts);
        Assert.Equal("successful operations; failed and throttled attempts excluded", Row(comparison, "latency-coverage").Texts[0]);
    }

    [Fact]
    public async Task Rows_SayNotApplicable_ForTableStorageAndNoOpRunsStoredBeforeTheSummarySaidSo()
    {
        // A summary written before RequestUnitsReported existed reads it as true and its RU figures as 0.
        await using var context = new BenchWebComponentContext();
        var old = new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, AverageThroughput = 10, TotalRequestUnits = 0, RequestUnitsPerSecond = 0, RequestUnitsPerInsert = 0 };
        var tables = await CompareSeed.AddRunAsync(context.Databases, new BenchEngine.Running.RunPlan { Name = "tables", Target = new BenchEngine.Targets.TargetOptions { Kind = BenchEngine.Targets.TargetKind.TableStorage } }, null, old);
        var noOp = await CompareSeed.AddRunAsync(context.Databases, new BenchEngine.Running.RunPlan { Name = "client alone", Target = new BenchEngine.Targets.TargetOptions { Kind = BenchEngine.Targets.TargetKind.NoOp } }, null, old);

        var comparison = await LoadAsync(context, tables, noOp);

        Assert.Equal(["n/a", "n/a"], Row(comparison, "ru-per-second").Texts);
        Assert.Equal(["n/a", "n/a"], Row(comparison, "ru-per-insert").Texts);
        Assert.Equal(["n/a", "n/a"], Row(comparison, "cost-per-month").Texts);
    }

    [Fact]
    public async Task GivenUp_IsADash_ForARunStoredBeforeRequestsWereCounted_AndZeroForOneThatCountedThem()
    {
        // A summary written before requests sent and given up were counted has both at 0 beside the responses it had.
        await using var context = new BenchWebComponentContext();
        var counted = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("counted"), null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, TotalOkRequests = 100, TotalIssued = 100, AverageThroughput = 10 });
        var old = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("before counting"), null,
            new RunSummary { Elapsed = TimeSpan.FromSeconds(10), TotalOk = 100, TotalOkRequests = 100, AverageThroughput = 10 });

        var comparison = await LoadAsync(context, counted, old);

        Assert.Equal(["0", "—"], Row(comparison, "given-up").Texts);
        Assert.Null(Row(comparison, "given-up").Changes[1]);
    }

    [Fact]
    public async Task Load_KeepsTheOrderAsked_AndNamesTheMissingRuns()
    {
        await using var context = new BenchWebComponentContext();
        var first = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("first"), null, null);
        var second = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("second"), null, null);

        var comparison = await LoadAsync(context, second, 999, first);

        Assert.Equal([second, first], comparison.Runs.Select(r => r.Id).ToArray());
        Assert.Equal([999L], comparison.MissingIds);
        Assert.Equal("Run #999 does not exist.", comparison.MissingMessage);
    }

    [Fact]
    public async Task Series_StartEveryRunAtZero_WithRatesPerSecond()
    {
        await using var context = new BenchWebComponentContext();
        var slow = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("slow"), null, null, CompareSeed.Seconds(3, ok: 1_000, throttled: 5, p99: 40));
        var fast = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("fast"), null, null, CompareSeed.Seconds(4, ok: 2_000, p99: 20));

        var series = (await LoadAsync(context, slow, fast)).Series();

        Assert.Equal(2, series.Count);
        Assert.Equal([0d, 1, 2], series[0].Time);
        Assert.Equal([0d, 1, 2, 3], series[1].Time);
        // The last, half second: 500 inserts in 0.5 s is 1,000/s; 5 throttled in 0.5 s is 10/s.
        Assert.Equal([1_000d, 1_000, 1_000], series[0].Inserts);
        Assert.Equal([5d, 5, 10], series[0].Throttled);
        Assert.Equal([6_000d, 6_000, 6_000], series[0].RequestUnits);
        Assert.Equal([20d, 20, 20, 20], series[1].LatencyP99);
        Assert.Equal([5d, 5, 5, 5], series[1].LatencyP50);
        Assert.Equal($"#{fast} fast", series[1].Label);
    }

    [Fact]
    public async Task SecondsCsv_HasOneRowPerRunPerSecond_WithInvariantNumbers()
    {
        await using var context = new BenchWebComponentContext();
        var a = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("a, with comma"), null, null, CompareSeed.Seconds(2, ok: 1_001, p99: 12.5));
        var b = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("b"), null, null, CompareSeed.Seconds(3, ok: 10));
        var comparison = await LoadAsync(context, a, b);
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");
        string text;
        try
        {
            await using var writer = new StringWriter(CultureInfo.InvariantCulture);
            await comparison.WriteSecondsCsvAsync(writer, CancellationToken.None);
            text = writer.ToString();
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }

        using var csv = new CsvReader(new StringReader(text), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(5, rows.Count);
        Assert.Equal(["RunId", "Profile", "Second", "ElapsedSeconds", "InsertsPerSecond", "ThrottledPerSecond", "RequestUnitsPerSecond", "LatencyP50Ms", "LatencyP99Ms"], rows[0].Keys.ToArray());
        Assert.Equal(a.ToString(CultureInfo.InvariantCulture), rows[0]["RunId"]);
        Assert.Equal("a, with comma", rows[0]["Profile"]);
        // Second 1 of run a is the half second: 500 inserts in 0.5 s.
        Assert.Equal("1", rows[1]["Second"]);
        Assert.Equal("1.5", rows[1]["ElapsedSeconds"]);
        Assert.Equal("1000", rows[1]["InsertsPerSecond"]);
        Assert.Equal("12.5", rows[1]["LatencyP99Ms"]);
        Assert.Equal("3.125", rows[1]["LatencyP50Ms"]);
        Assert.Equal(b.ToString(CultureInfo.InvariantCulture), rows[4]["RunId"]);
    }

    [Theory]
    [InlineData("", "Choose 2 to 5 runs: add them to the address, e.g. ?runs=12,15.")]
    [InlineData("7", "Choose 2 to 5 runs; 1 was given.")]
    [InlineData("1,2,3,4,5,6", "At most 5 runs at a time; 6 were given.")]
    [InlineData("1,abc", "“abc” is not a run number. Give run numbers separated by commas, e.g. runs=12,15.")]
    [InlineData("1,-2", "“-2” is not a run number. Give run numbers separated by commas, e.g. runs=12,15.")]
    [InlineData("4,4", "Run #4 is listed twice.")]
    public void Selection_SaysWhatIsWrong_WhenTheIdsAreNotTwoToFiveRuns(string text, string error)
    {
        var selection = RunSelection.Parse(text, 2, 5);

        Assert.False(selection.IsValid);
        Assert.Equal(error, selection.Error);
        Assert.Empty(selection.Ids);
    }

    [Fact]
    public void Selection_KeepsTheOrderGiven()
    {
        var selection = RunSelection.Parse(" 12, #3 ,7", 2, 5);

        Assert.True(selection.IsValid);
        Assert.Equal([12L, 3, 7], selection.Ids);
        Assert.Equal("12,3,7", selection.Query);
    }

    internal static RunSummary Summary(double throughput, double p99, double throttled, double meanLatency = 5) => new()
    {
        Elapsed = TimeSpan.FromSeconds(60),
        TotalOk = (long)(throughput * 60),
        AverageThroughput = throughput,
        MeanPerSecondThroughput = throughput,
        P99PerSecondThroughput = throughput * 1.1,
        Latency = new LatencySummary { MeanMs = meanLatency, P50Ms = p99 / 4, P99Ms = p99 },
        RequestUnitsPerSecond = throughput * 6,
        RequestUnitsPerInsert = 6,
        ThrottledFraction = throttled,
        ProvisionedRequestUnitsPerSecond = 10_000,
        EstimatedCostPerMonth = 584,
    };

    private static ComparisonRow Row(RunComparison comparison, string key) => comparison.Rows.Single(r => r.Key == key);

    [Fact]
    public async Task SecondsCsvAndSeries_HaveNoLatencyOrRequestUnits_WhereThereAreNone()
    {
        await using var context = new BenchWebComponentContext();
        var seconds = CompareSeed.Seconds(3, ok: 10).ToList();
        seconds[1].Ok = seconds[1].OkRequests = 0;
        seconds[1].LatencyP50Ms = seconds[1].LatencyP99Ms = null;
        var id = await CompareSeed.AddRunAsync(context.Databases,
            new BenchEngine.Running.RunPlan { Name = "tables", Target = new BenchEngine.Targets.TargetOptions { Kind = BenchEngine.Targets.TargetKind.TableStorage } }, null, null, seconds);
        var comparison = await LoadAsync(context, id);

        await using var writer = new StringWriter(CultureInfo.InvariantCulture);
        await comparison.WriteSecondsCsvAsync(writer, CancellationToken.None);

        using var csv = new CsvReader(new StringReader(writer.ToString()), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();
        Assert.Equal(["", ""], new[] { rows[1]["LatencyP50Ms"], rows[1]["LatencyP99Ms"] });
        Assert.All(rows, row => Assert.Equal("", row["RequestUnitsPerSecond"]));
        var series = Assert.Single(comparison.Series());
        Assert.Null(series.LatencyP99[1]);
        Assert.All(series.RequestUnits, Assert.Null);
    }

    private static async Task<RunComparison> LoadAsync(BenchWebComponentContext context, params long[] ids)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        return await RunComparison.LoadAsync(db, ids, includeSeconds: true, CancellationToken.None);
    }
}
