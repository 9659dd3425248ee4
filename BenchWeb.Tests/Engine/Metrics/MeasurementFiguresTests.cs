using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

/// <summary>The summary's figures never overstate: unknown is null, not applicable is null, a partial second is no rate.</summary>
[UnitTest]
public class MeasurementFiguresTests
{
    private static SecondSnapshot Second(int index, long ok, double ru = 0, double duration = 1) =>
        SummaryCalculatorTests.Second(index, ok, ru: ru, duration: duration) with { Issued = ok };

    [Fact]
    public void CloseSecond_HasNoLatency_WhenNoOperationOfTheSecondSucceeded()
    {
        var recorder = new RunRecorder();
        recorder.Record(OperationOutcome.Failed(503, 0, "unavailable"));
        recorder.Record(OperationOutcome.Throttled(429, 0, null));

        var second = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);

        Assert.Null(second.LatencyP50Ms);
        Assert.Null(second.LatencyP95Ms);
        Assert.Null(second.LatencyP99Ms);
        Assert.Null(second.LatencyMaxMs);
    }

    [Fact]
    public void Summary_Latency_IsNull_WhenNoOperationSucceeded()
    {
        var latency = SummaryCalculator.Calculate([Second(0, 0)], new LatencyDistribution()).Latency;

        Assert.Equal(0, latency.Count);
        Assert.Null(latency.P50Ms);
        Assert.Null(latency.P99Ms);
        Assert.Null(latency.MaxMs);
    }

    [Fact]
    public void Summary_GivesThePercentileSetOfLoadTools_OverAllOperations()
    {
        // 1..1,000 ms, one operation each: percentile p is p × 10 ms.
        var total = new LatencyDistribution();
        for (var ms = 1; ms <= 1_000; ms++)
        {
            total.RecordMicroseconds(ms * 1_000);
        }

        var latency = SummaryCalculator.Calculate([Second(0, 1_000)], total).Latency;

        Assert.InRange(latency.P50Ms!.Value, 500, 501);
        Assert.InRange(latency.P75Ms!.Value, 750, 751);
        Assert.InRange(latency.P90Ms!.Value, 900, 901);
        Assert.InRange(latency.P95Ms!.Value, 950, 951);
        Assert.InRange(latency.P98Ms!.Value, 980, 981);
        Assert.InRange(latency.P99Ms!.Value, 990, 991);
        Assert.InRange(latency.P999Ms!.Value, 999, 1_000);
        Assert.Equal(1_000, latency.MaxMs);
    }

    [Fact]
    public void Summary_Top10PercentMeanThroughput_AveragesTheBestTenthOfFullSeconds()
    {
        // 20 full seconds of 1..20 documents and a partial last second: the best two full seconds are 19 and 20.
        var seconds = Enumerable.Range(0, 20).Select(i => Second(i, i + 1)).Append(Second(20, 500, duration: 0.2)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(19.5, summary.Top10PercentMeanThroughput!.Value, 9);
        Assert.Equal(20, summary.P99PerSecondThroughput, 9);
    }

    [Fact]
    public void Summary_HasNoRates_WhenTheRunLastedUnderASecond()
    {
        var summary = SummaryCalculator.Calculate([Second(0, 10, ru: 50, duration: 0.2)], new LatencyDistribution(), provisionedRuPerSecond: 400);

        Assert.Null(summary.RequestUnitsPerSecond);
        Assert.Null(summary.AchievedRequestsPerSecond);
        Assert.Equal(50, summary.TotalRequestUnits);
        Assert.Equal(5, summary.RequestUnitsPerInsert);
    }

    [Fact]
    public void Summary_HasNoRequestUnitFiguresOrCost_WhenTheTargetReportsNone()
    {
        var summary = SummaryCalculator.Calculate([Second(0, 100), Second(1, 100)], new LatencyDistribution(), new SummaryOptions
        {
            RequestUnitsReported = false,
            ProvisionedRequestUnitsPerSecond = 10_000,
        });

        Assert.False(summary.RequestUnitsReported);
        Assert.Null(summary.TotalRequestUnits);
        Assert.Null(summary.RequestUnitsPerSecond);
        Assert.Null(summary.RequestUnitsPerInsert);
        Assert.Null(summary.ProvisionedRequestUnitsPerSecond);
        Assert.Null(summary.EstimatedCostOfRun);
        Assert.Null(summary.EstimatedCostPerMonth);
    }

    [Fact]
    public void Summary_HasNoCost_WhenTheProvisionedThroughputIsUnknown()
    {
        var summary = SummaryCalculator.Calculate([Second(0, 100, ru: 500)], new LatencyDistribution(), new SummaryOptions());

        Assert.True(summary.RequestUnitsReported);
        Assert.Equal(500, summary.RequestUnitsPerSecond);
        Assert.Null(summary.EstimatedCostOfRun);
        Assert.Null(summary.EstimatedCostPerMonth);
    }

    [Fact]
    public void Summary_PricesAutoscaleAtOneAndAHalfTimesTheManualRate_OnThePeakSecond()
    {
        // Autoscale up to 10,000 RU/s; the run's busiest second consumed 4,000 RU: the hour is billed at 4,000 RU/s × 1.5.
        var seconds = new[] { Second(0, 100, ru: 2_000), Second(1, 100, ru: 4_000), Second(2, 100, ru: 500) };

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution(), new SummaryOptions
        {
            ProvisionedRequestUnitsPerSecond = 10_000,
            Autoscale = true,
        });

        Assert.True(summary.ProvisionedAutoscale);
        Assert.Equal(4_000 / 100.0 * 0.008 * 1.5 * 730, summary.EstimatedCostPerMonth!.Value, 6);
        Assert.Equal(4_000 / 100.0 * 0.008 * 1.5 * 3 / 3600, summary.EstimatedCostOfRun!.Value, 9);
    }

    [Fact]
    public void Autoscale_IsBilledAtATenthOfItsMaximum_WhenTheRunConsumedLess()
    {
        var (run, month) = ThroughputCost.Autoscale(10_000, [(0, 1, 10)], 1);

        Assert.Equal(1_000 / 100.0 * 0.008 * 1.5 * 730, month, 6);
        Assert.Equal(1_000 / 100.0 * 0.008 * 1.5 / 3600, run, 9);
    }

    [Fact]
    public void Summary_CountsDroppedAndGivenUp_AndTheOfferedAndAchievedRates()
    {
        var seconds = new[]
        {
            Second(0, 40) with { Issued = 50, Dropped = 50, GivenUp = 10 },
            Second(1, 50) with { Issued = 50, Dropped = 50 },
        };

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution(), new SummaryOptions { OfferedRequestsPerSecond = 100 });

        Assert.Equal(100, summary.TotalIssued);
        Assert.Equal(100, summary.TotalDropped);
        Assert.Equal(10, summary.TotalGivenUp);
        Assert.Equal(100, summary.OfferedRequestsPerSecond);
        Assert.Equal(50, summary.AchievedRequestsPerSecond);
        Assert.Equal(0.5, summary.DroppedFraction, 9);
    }

    [Theory]
    [InlineData(0.04, "0.0 s")]
    [InlineData(30.0, "30.0 s")]
    [InlineData(30.04, "30.0 s")]
    [InlineData(59.96, "60.0 s (1:00)")]
    [InlineData(3_600, "3,600.0 s (1:00:00)")]
    public void ElapsedText_WritesOneTimeForOneElapsed(double seconds, string expected) =>
        Assert.Equal(expected, ElapsedText.Format(TimeSpan.FromSeconds(seconds)));

    [Fact]
    public void Evaluate_Fails_WhenMoreOfTheRequestsDueWentUnsentThanAllowed()
    {
        var summary = new RunSummary { TotalOk = 500, TotalIssued = 500, TotalDropped = 500, DroppedFraction = 0.5, Latency = new LatencySummary { Count = 500, P99Ms = 5 } };

        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, summary, new ThresholdOptions { MaxDroppedPercent = 10 }, null);

        Assert.False(verdict.Passed);
        var check = Assert.Single(verdict.Checks, c => c.Name == "dropped");
        Assert.Equal("requests due but not sent 50.00 % > 10.00 % (500 of 1,000)", check.Message);
    }

    [Theory]
    [InlineData(LoadModel.OpenLoop, 1.5, null, "Stop.AutoStop.DroppedFractionAbove")]
    [InlineData(LoadModel.ClosedLoop, 0.1, null, "Stop.AutoStop.DroppedFractionAbove")]
    [InlineData(LoadModel.OpenLoop, null, 101.0, "Thresholds.MaxDroppedPercent")]
    [InlineData(LoadModel.OpenLoop, null, -1.0, "Thresholds.MaxDroppedPercent")]
    [InlineData(LoadModel.Waves, null, 5.0, "Thresholds.MaxDroppedPercent")]
    public void Validate_RefusesAnUnsentShare_OutOfRangeOrOutsideTheOpenLoop(LoadModel model, double? autoStop, double? threshold, string field)
    {
        var plan = new RunPlan
        {
            Name = "unsent",
            Load = new LoadOptions { Model = model, RatePerSecond = model == LoadModel.OpenLoop ? 100 : null },
            Stop = new StopOptions { DurationSeconds = 10, AutoStop = autoStop is null ? null : new AutoStopOptions { DroppedFractionAbove = autoStop } },
            Thresholds = threshold is null ? null : new ThresholdOptions { MaxDroppedPercent = threshold },
        };

        Assert.Contains(plan.Validate(), e => e.Field == field);
    }

    [Fact]
    public void Validate_AcceptsAnUnsentShare_ForTheOpenLoop()
    {
        var plan = new RunPlan
        {
            Name = "unsent",
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 100 },
            Stop = new StopOptions { DurationSeconds = 10, AutoStop = new AutoStopOptions { DroppedFractionAbove = 0.1 } },
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 5 },
        };

        Assert.Empty(plan.Validate());
    }
}
