using BenchEngine.Metrics;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Runs;

[UnitTest]
public sealed class RunWindowSummaryTests
{
    private static RunSecondEntity Second(int index, long ok, bool starved) => new()
    {
        Index = index,
        ElapsedSeconds = index + 1,
        DurationSeconds = 1,
        Ok = ok,
        OkRequests = ok,
        Issued = ok,
        LatencyP50Ms = 4,
        LatencyP99Ms = 20 + index,
        ClientCpuPercent = 25,
        HostCpuPercent = starved ? 100 : 20,
        SchedulingLagP99Ms = starved ? 90 : 0.3,
        ClientLimits = (int)(starved ? ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag : ClientLimitKinds.None),
    };

    [Fact]
    public void Calculate_SomeSecondsClientLimited_LeavesThemOutOfEveryFigure()
    {
        var seconds = new[] { Second(0, 400, starved: true), Second(1, 500, starved: false), Second(2, 600, starved: false) };

        var window = RunWindowSummary.Calculate(seconds, 0, 2);

        Assert.Equal(1, window.SecondsLeftOut);
        Assert.Equal(550, window.MeanThroughput);
        Assert.Equal(600, window.P99Throughput);
        Assert.Equal(22, window.MaxSecondP99Ms);
    }

    // A window whose every second was client-limited still has figures (the client's, as the page says), never 0/s and 0 ms
    // beside a mean of 450/s.
    [Fact]
    public void Calculate_EverySecondClientLimited_GivesTheirFiguresNotZeros()
    {
        var seconds = new[] { Second(0, 300, starved: true), Second(1, 450, starved: true), Second(2, 600, starved: true) };

        var window = RunWindowSummary.Calculate(seconds, 0, 2);

        Assert.Equal(0, window.SecondsLeftOut);
        Assert.Equal(450, window.MeanThroughput);
        Assert.Equal(600, window.P99Throughput);
        Assert.Equal(22, window.MaxSecondP99Ms);
        Assert.Equal(4, window.MedianSecondP50Ms);
    }
}
