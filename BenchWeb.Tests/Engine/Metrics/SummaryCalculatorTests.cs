using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class SummaryCalculatorTests
{
    internal static SecondSnapshot Second(int index, long ok, long throttled = 0, long errors = 0, double ru = 0, double duration = 1) => new()
    {
        Index = index,
        Elapsed = TimeSpan.FromSeconds(index + duration),
        Duration = TimeSpan.FromSeconds(duration),
        Ok = ok,
        OkRequests = ok,
        Throttled = throttled,
        Errors = errors,
        RequestUnits = ru,
    };

    [Fact]
    public void Summary_P99OfPerSecondThroughput_MatchesSeedDefinition()
    {
        // 100 full seconds with ok = 1..100: mean 50.5, nearest-rank P99 = 99.
        var seconds = Enumerable.Range(0, 100).Select(i => Second(i, i + 1)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(50.5, summary.MeanPerSecondThroughput, 9);
        Assert.Equal(99, summary.P99PerSecondThroughput);
        Assert.Equal(5050, summary.TotalOk);
        Assert.Equal(50.5, summary.AverageThroughput, 9);
    }

    [Fact]
    public void Summary_ExcludesThePartialLastSecondFromPerSecondRates_ButCountsItsDocuments()
    {
        var seconds = new List<SecondSnapshot> { Second(0, 100), Second(1, 100), Second(2, 10, duration: 0.1) };

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(210, summary.TotalOk);
        Assert.Equal(100, summary.MeanPerSecondThroughput);
        Assert.Equal(2.1, summary.Elapsed.TotalSeconds, 9);
        Assert.Equal(100, summary.AverageThroughput, 9);
    }

    [Fact]
    public void Summary_HighestClientCpu_IsOfTheFullSeconds_NotOfALastSecondOfAFewMilliseconds()
    {
        // A last second of 7 ms reads this process's CPU over those milliseconds (63 %): no figure of the run.
        var seconds = new List<SecondSnapshot> { Second(0, 100) with { ClientCpuPercent = 30 }, Second(1, 100) with { ClientCpuPercent = 39.5 }, Second(2, 1, duration: 0.007) with { ClientCpuPercent = 63 } };
        var sliverOnly = new List<SecondSnapshot> { Second(0, 1, duration: 0.2) with { ClientCpuPercent = 12 } };

        Assert.Equal(39.5, SummaryCalculator.Calculate(seconds, new LatencyDistribution()).MaxClientCpuPercent);
        Assert.Equal(12, SummaryCalculator.Calculate(sliverOnly, new LatencyDistribution()).MaxClientCpuPercent);
    }

    [Fact]
    public void Summary_ThrottledFraction_IsThrottledResponsesOverAllResponses()
    {
        var seconds = new List<SecondSnapshot> { Second(0, 90, throttled: 8, errors: 2, ru: 450) };

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution(), provisionedRuPerSecond: 10_000);

        Assert.Equal(0.08, summary.ThrottledFraction, 9);
        Assert.Equal(5, summary.RequestUnitsPerInsert!.Value, 9);
        Assert.Equal(450, summary.RequestUnitsPerSecond!.Value, 9);
        Assert.Equal(10_000 / 100 * 0.008 * 730, summary.EstimatedCostPerMonth!.Value, 6);
        Assert.Equal(10_000 / 100 * 0.008 / 3600, summary.EstimatedCostOfRun!.Value, 9);
    }

    [Fact]
    public void Summary_LatencyPercentiles_AreOverAllOperations_NotAnAverageOfSecondPercentiles()
    {
        // 100 fast and 100 slow operations: over all 200, P50 is fast and P96 slow.
        var total = new LatencyDistribution();
        for (var i = 0; i < 100; i++)
        {
            total.RecordMicroseconds(1_000);
        }

        for (var i = 0; i < 100; i++)
        {
            total.RecordMicroseconds(100_000);
        }

        var summary = SummaryCalculator.Calculate([Second(0, 100), Second(1, 100)], total);

        Assert.Equal(1, summary.Latency.P50Ms);
        Assert.InRange(summary.Latency.P96Ms!.Value, 100, 100.1);
        Assert.InRange(summary.Latency.P99Ms!.Value, 100, 100.1);
        Assert.Equal(200, summary.Latency.Count);
    }

    [Fact]
    public void Summary_LatencyMaxAndMean_AreExact_NotBucketValues()
    {
        var total = new LatencyDistribution();
        total.RecordMicroseconds(1_000_001);
        total.RecordMicroseconds(2_000_003);

        var latency = SummaryCalculator.Calculate([Second(0, 2)], total).Latency;

        Assert.Equal(2_000.003, latency.MaxMs!.Value, 9);
        Assert.Equal(2_000.003, latency.P999Ms!.Value, 9);
        Assert.Equal(1_500.002, latency.MeanMs!.Value, 9);
        Assert.InRange(latency.P50Ms!.Value, 1_000.001, 1_001.001);
    }

    [Fact]
    public void SteadyState_ExcludesWarmUpAndCoolDown()
    {
        long[] ok = [5, 40, 100, 110, 95, 105, 100, 30];
        var seconds = ok.Select((v, i) => Second(i, v)).ToList();

        var window = SummaryCalculator.FindSteadyState(seconds);

        Assert.Equal(2, window.FirstSecond);
        Assert.Equal(6, window.LastSecond);
        Assert.Equal(102, window.MeanThroughput, 9);
    }

    [Fact]
    public void SteadyState_IsNone_WhenTheServiceLandedNothingInMostOfItsSeconds()
    {
        // A service paused after second 1: seconds of nothing are no steady state (a window of them read "steady 0.0/s").
        long[] ok = [900, 1_000, 0, 0, 0];
        var seconds = ok.Select((v, i) => Second(i, v)).ToList();

        var window = SummaryCalculator.FindSteadyState(seconds);

        Assert.Equal(0, window.Seconds);
        Assert.Equal(0, window.MeanThroughput);
    }

    [Fact]
    public void SteadyState_IsTheSecondsBeforeAStall_WithoutTheSecondTheStallBeganIn()
    {
        // 200/s, then a stall from second 3 (5 landed as it began) to the end: the empty seconds are most of the run, and half
        // their median (0) let the second of 5 in ("steady 151.2/s (s 0–3)").
        long[] ok = [200, 200, 200, 5, 0, 0, 0, 0];
        var seconds = ok.Select((v, i) => Second(i, v)).ToList();

        var window = SummaryCalculator.FindSteadyState(seconds);

        Assert.Equal((0, 2), (window.FirstSecond, window.LastSecond));
        Assert.Equal(200, window.MeanThroughput, 9);
    }

    [Theory]
    [InlineData(new long[] { 100 })]
    [InlineData(new long[] { 100, 100 })]
    [InlineData(new long[] { 5, 100, 100, 5 })]
    public void SteadyState_IsNone_WithFewerThanThreeSecondsAtTheRate(long[] ok)
    {
        var window = SummaryCalculator.FindSteadyState(ok.Select((v, i) => Second(i, v)).ToList());

        Assert.Equal(0, window.Seconds);
    }

    [Fact]
    public void SteadyState_IsNone_SayingWhy_TooShortNothingLandedClientLimitedOrTooFewAtTheRate()
    {
        static List<SecondSnapshot> Of(long[] ok, params int[] serviceSeconds) =>
            [.. ok.Select((v, i) => Second(i, v) with { ClientCpuPercent = serviceSeconds.Length == 0 || serviceSeconds.Contains(i) ? 20 : 100 })];
        var sixty = Enumerable.Repeat(500L, 60).ToArray();

        Assert.Equal(NoSteadyState.TooShort, SummaryCalculator.FindSteadyState(Of([100, 100])).Absence);
        Assert.Equal(NoSteadyState.NothingLanded, SummaryCalculator.FindSteadyState(Of([0, 0, 0, 0])).Absence);
        // A 60 s run on a busy machine: the client was the limit in 58 of its seconds, so 2 were the service's.
        Assert.Equal(NoSteadyState.ClientLimited, SummaryCalculator.FindSteadyState(Of(sixty, 10, 30)).Absence);
        Assert.Equal(NoSteadyState.TooFewSteadySeconds, SummaryCalculator.FindSteadyState(Of([900, 1_000, 0, 0, 0])).Absence);
        Assert.Null(SummaryCalculator.FindSteadyState(Of(sixty, 10, 30, 50)).Absence);
    }

    [Fact]
    public void Summary_FlagsClientBound_WhenClientCpuReaches85Percent()
    {
        var seconds = new List<SecondSnapshot> { Second(0, 10) with { ClientCpuPercent = 86 } };

        Assert.True(SummaryCalculator.Calculate(seconds, new LatencyDistribution()).ClientBound);
        Assert.False(SummaryCalculator.Calculate([Second(0, 10) with { ClientCpuPercent = 60 }], new LatencyDistribution()).ClientBound);
    }

    [Fact]
    public void ForWindow_CountsNearTheirLargestValue_GiveFiniteFiguresRatherThanOverflowing()
    {
        // A run imported before its figures were range-checked may hold them: its page must still show.
        var seconds = new[] { Second(0, long.MaxValue, throttled: long.MaxValue), Second(1, long.MaxValue, throttled: long.MaxValue) };

        var window = SummaryCalculator.ForWindow(seconds, 0, 1);

        Assert.True(double.IsFinite(window.MeanThroughput) && window.MeanThroughput > 9e18, window.MeanThroughput.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(0.5, window.ThrottledFraction, 6);
    }
}
