using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

/// <summary>The summary's per-second figures are the service's: client-limited seconds are left out of them and counted,
/// and named in words as spans.</summary>
[UnitTest]
public class ClientHealthSummaryTests
{
    private static readonly ClientHealth Healthy = new() { HostCpuPercent = 40, SchedulingLagP99Ms = 0.5 };

    private static readonly ClientHealth Starved = new()
    {
        HostCpuPercent = 100,
        SchedulingLagP99Ms = 180,
        Limits = ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag,
    };

    private static SecondSnapshot Second(int index, long ok, ClientHealth? health = null, double cpu = 22) => new()
    {
        Index = index,
        Elapsed = TimeSpan.FromSeconds(index + 1),
        Duration = TimeSpan.FromSeconds(1),
        Ok = ok,
        OkRequests = ok,
        Issued = ok,
        ClientCpuPercent = cpu,
        Health = health,
    };

    /// <summary>Ten steady seconds of 500/s, with seconds 3–4 starved by other processes: one 3,664/s (late callbacks landing
    /// at once) and one of 40/s.</summary>
    private static List<SecondSnapshot> RunWithAStarvedStretch()
    {
        var seconds = Enumerable.Range(0, 10).Select(i => Second(i, 500, Healthy)).ToList();
        seconds[3] = Second(3, 3_664, Starved);
        seconds[4] = Second(4, 40, Starved);
        return seconds;
    }

    [Fact]
    public void Calculate_PerSecondFigures_LeaveClientLimitedSecondsOut_AndCountThem()
    {
        var summary = SummaryCalculator.Calculate(RunWithAStarvedStretch(), new LatencyDistribution());

        Assert.Equal(500, summary.P99PerSecondThroughput);
        Assert.Equal(500, summary.MeanPerSecondThroughput);
        Assert.Equal(500, summary.Top10PercentMeanThroughput);
        Assert.Equal(2, summary.PerSecondLeftOut);
        Assert.Equal(2, summary.ClientLimitedSeconds);
        Assert.True(summary.ClientBound);
    }

    [Fact]
    public void Calculate_TotalsKeepEveryDocument_EvenOfClientLimitedSeconds()
    {
        var seconds = RunWithAStarvedStretch();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(seconds.Sum(s => s.Ok), summary.TotalOk);
    }

    [Fact]
    public void Calculate_SteadyStateWindow_LeavesClientLimitedSecondsOut()
    {
        var summary = SummaryCalculator.Calculate(RunWithAStarvedStretch(), new LatencyDistribution());

        Assert.Equal(0, summary.SteadyState.FirstSecond);
        Assert.Equal(9, summary.SteadyState.LastSecond);
        Assert.Equal(2, summary.SteadyState.SecondsLeftOut);
        Assert.Equal(500, summary.SteadyState.MeanThroughput);
    }

    [Fact]
    public void Calculate_ClientLimitedSpans_NameTheSecondsAndWhyInWords()
    {
        var summary = SummaryCalculator.Calculate(RunWithAStarvedStretch(), new LatencyDistribution());

        var span = Assert.Single(summary.ClientLimitedSpans);
        Assert.Equal("seconds 3–4: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %", span.Describe());
        Assert.Equal(ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag, span.Limits);
    }

    [Fact]
    public void Calculate_SeparateStretches_AreSeparateSpans()
    {
        var seconds = Enumerable.Range(0, 8).Select(i => Second(i, 100, i is 1 or 5 or 6 ? Starved : Healthy)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(["second 1", "seconds 5–6"], summary.ClientLimitedSpans.Select(s => s.Seconds));
    }

    [Fact]
    public void Calculate_WorstClientSecond_IsTheOneFurthestPastABound()
    {
        var summary = SummaryCalculator.Calculate(RunWithAStarvedStretch(), new LatencyDistribution());

        Assert.NotNull(summary.WorstClientSecond);
        Assert.Equal(3, summary.WorstClientSecond.Index);
        Assert.Equal(180, summary.WorstClientSecond.Health.SchedulingLagP99Ms);
        Assert.StartsWith("the client was starved", summary.WorstClientSecond.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Calculate_EverySecondClientLimited_KeepsThePerSecondFiguresOfAllOfThem()
    {
        var seconds = Enumerable.Range(0, 4).Select(i => Second(i, 100 * (i + 1), Starved)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(0, summary.PerSecondLeftOut);
        Assert.Equal(250, summary.MeanPerSecondThroughput);
        Assert.Equal(400, summary.P99PerSecondThroughput);
        Assert.Equal(3, summary.SteadyState.Seconds);
        Assert.Equal(0, summary.SteadyState.SecondsLeftOut);
        Assert.Equal("seconds 0–3", Assert.Single(summary.ClientLimitedSpans).Seconds);
    }

    [Fact]
    public void Calculate_HealthyRun_HasNoVerdictAndLeavesNothingOut()
    {
        var seconds = Enumerable.Range(0, 5).Select(i => Second(i, 100, Healthy)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.False(summary.ClientBound);
        Assert.Empty(summary.ClientLimitedSpans);
        Assert.Equal(0, summary.PerSecondLeftOut);
        Assert.Equal("", summary.WorstClientSecond!.Reason);
    }

    [Fact]
    public void Calculate_SecondsMeasuredBeforeClientHealth_FallBackToTheProcessCpuBound()
    {
        var seconds = Enumerable.Range(0, 4).Select(i => Second(i, 100, health: null, cpu: i == 2 ? 91 : 30)).ToList();

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.True(summary.ClientBound);
        Assert.Equal("second 2", Assert.Single(summary.ClientLimitedSpans).Seconds);
        Assert.Null(summary.WorstClientSecond);
    }

    [Fact]
    public void ForStages_CountsEachStagesClientLimitedSeconds()
    {
        var stages = SummaryCalculator.ForStages(RunWithAStarvedStretch(), [4, 6]);

        Assert.Equal([1, 1], stages.Select(s => s.ClientLimitedSeconds));
    }

    [Fact]
    public void Calculate_AccountsBalance_WhenEveryRequestIsInOneBucket()
    {
        SecondSnapshot[] seconds =
        [
            new() { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Issued = 100, OkRequests = 90, Errors = 2, Dropped = 5, InFlight = 8 },
            new() { Index = 1, Elapsed = TimeSpan.FromSeconds(1.5), Duration = TimeSpan.FromSeconds(0.5), Issued = 10, OkRequests = 12, GivenUpRequests = 1, Abandoned = 5, NotStarted = 3 },
        ];

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(118, summary.TotalOffered);
        Assert.True(summary.AccountsBalance);
        Assert.All(SummaryCalculator.ForStages(seconds, [1, 1]), stage => Assert.True(stage.AccountsBalance));
    }

    [Fact]
    public void Calculate_AccountsDoNotBalance_WhenARequestIsInNoBucket()
    {
        SecondSnapshot[] seconds = [new() { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Issued = 100, OkRequests = 99 }];

        Assert.False(SummaryCalculator.Calculate(seconds, new LatencyDistribution()).AccountsBalance);
    }
}
