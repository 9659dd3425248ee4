using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public sealed class ThresholdEvaluatorTests
{
    private static readonly RunSummary Summary = new()
    {
        TotalOk = 60_000,
        AverageThroughput = 1_000,
        ThrottledFraction = 0.02,
        Latency = new LatencySummary { Count = 60_000, P99Ms = 40 },
    };

    [Fact]
    public void Evaluate_EveryLimitMet_Passes()
    {
        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, Summary,
            new ThresholdOptions { MinThroughput = 1_000, MaxP99LatencyMs = 40, MaxThrottledPercent = 2, MinShareOfBaseline = 0.95 }, baselineThroughput: 1_050);

        Assert.True(verdict.Passed);
        Assert.Equal(["completed", "throughput", "p99 latency", "throttled", "baseline"], verdict.Checks.Select(c => c.Name));
        Assert.StartsWith("Passed (5 checks)", verdict.Describe(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1_000.1, null, null, "average throughput 1,000.0/s < 1,000.1/s")]
    [InlineData(null, 39.9, null, "p99 latency 40.0 ms > 39.9 ms")]
    [InlineData(null, null, 1.99, "throttled 2.00 % > 1.99 %")]
    public void Evaluate_OneLimitMissed_FailsNamingIt(double? minThroughput, double? maxP99, double? maxThrottled, string message)
    {
        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, Summary,
            new ThresholdOptions { MinThroughput = minThroughput, MaxP99LatencyMs = maxP99, MaxThrottledPercent = maxThrottled }, null);

        Assert.False(verdict.Passed);
        Assert.Equal($"Failed: {message}", verdict.Describe());
    }

    [Fact]
    public void Evaluate_BelowTheBaselineShare_Fails()
    {
        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, Summary, new ThresholdOptions { MinShareOfBaseline = 0.95 }, baselineThroughput: 1_100);

        Assert.False(verdict.Passed);
        Assert.Equal("Failed: average throughput 90.9 % of the baseline's 1,100.0/s < 95 %", verdict.Describe());
    }

    [Fact]
    public void Evaluate_NoBaselineToCompareWith_FailsSayingSo()
    {
        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, Summary, new ThresholdOptions { MinShareOfBaseline = 0.95 }, baselineThroughput: null);

        Assert.False(verdict.Passed);
        Assert.Contains("no baseline throughput to compare with", verdict.Describe(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(RunStatus.Cancelled)]
    [InlineData(RunStatus.Failed)]
    [InlineData(RunStatus.Interrupted)]
    public void Evaluate_RunThatDidNotComplete_FailsEvenWithinLimits(RunStatus status)
    {
        var verdict = ThresholdEvaluator.Evaluate(status, Summary, new ThresholdOptions { MinThroughput = 1 }, null);

        Assert.False(verdict.Passed);
        Assert.Equal($"Failed: the run did not complete ({status})", verdict.Describe());
    }

    [Fact]
    public void Evaluate_NothingLanded_FailsEvenWithNoThrottlingAndNoLatency()
    {
        var nothing = new RunSummary { TotalOk = 0, TotalErrors = 5_000, ThrottledFraction = 0, Latency = new LatencySummary() };

        var verdict = ThresholdEvaluator.Evaluate(RunStatus.Completed, nothing, new ThresholdOptions { MaxP99LatencyMs = 50, MaxThrottledPercent = 5 }, null);

        Assert.False(verdict.Passed);
        Assert.Equal("Failed: no document landed (5,000 errors); no successful operation: no latency to check", verdict.Describe());
    }

    [Fact]
    public void Validate_UndefinedChoice_IsAnErrorNotACrash()
    {
        var plan = new RunPlan { Target = new BenchEngine.Targets.TargetOptions { Kind = new BenchEngine.Targets.TargetKind("Mainframe") } };

        var error = Assert.Single(plan.Validate());
        Assert.Equal("Target.Kind", error.Field);
        Assert.StartsWith("Not one of Simulated, CosmosSql", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ThresholdsOutOfRange_NameEachField()
    {
        var plan = new RunPlan { Thresholds = new ThresholdOptions { MinThroughput = 0, MaxP99LatencyMs = -1, MaxThrottledPercent = 101, MinShareOfBaseline = 0 } };

        Assert.Equal(["Thresholds.MinThroughput", "Thresholds.MaxP99LatencyMs", "Thresholds.MaxThrottledPercent", "Thresholds.MinShareOfBaseline"], plan.Validate().Select(e => e.Field));
    }
}
