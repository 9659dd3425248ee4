using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class ClientLimitsTests
{
    private static readonly ClientHealth Healthy = new() { HostCpuPercent = 40, SchedulingLagP99Ms = 0.4, ThreadPoolQueueMax = 3, GcPauseMs = 2 };

    [Theory]
    [InlineData(150.0, 100L, 0L, ClientLimitKinds.ProcessCpu)]
    [InlineData(149.0, 100L, 0L, ClientLimitKinds.ProcessCpu | ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag)]
    [InlineData(null, 0L, 40L, ClientLimitKinds.ProcessCpu)]
    [InlineData(null, 0L, 0L, ClientLimitKinds.ProcessCpu | ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag)]
    [InlineData(99.0, 100L, 0L, ClientLimitKinds.ProcessCpu | ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag)]
    public void WaitingOnTheService_TakesOffOnlyTheStarvationBounds_WhenRequestsWaitedTenTimesTheLag(double? p50, long answered, long inFlight, ClientLimitKinds expected)
    {
        // A lag p99 of 15 ms: a median request of 150 ms (or a second with requests out and nothing answered) waited on the
        // service; the client's own CPU stays its limit. Under 100 ms no request is slow enough to set the pace, whatever the lag.
        var health = new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = p50 is 99.0 ? 5 : 15 };
        const ClientLimitKinds Crossed = ClientLimitKinds.ProcessCpu | ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag;

        Assert.Equal(expected, ClientLimits.WaitingOnTheService(Crossed, health, p50, answered, inFlight));
    }

    [Fact]
    public void Judge_NoBoundCrossed_WhenTheSecondIsHealthy()
    {
        Assert.Equal(ClientLimitKinds.None, ClientLimits.Default.Judge(35, Healthy));
    }

    [Theory]
    [InlineData(85, 40, 0.4, 3, 2, ClientLimitKinds.ProcessCpu)]
    [InlineData(20, 95, 0.4, 3, 2, ClientLimitKinds.HostCpu)]
    [InlineData(20, 40, 10, 3, 2, ClientLimitKinds.SchedulingLag)]
    [InlineData(20, 40, 0.4, 1_000, 2, ClientLimitKinds.ThreadPoolQueue)]
    [InlineData(20, 40, 0.4, 3, 100, ClientLimitKinds.GcPause)]
    [InlineData(40, 100, 180, 3, 2, ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag)]
    public void Judge_NamesEveryBoundCrossed_AtTheBound(double process, double host, double lagP99, long queue, double gc, ClientLimitKinds expected)
    {
        var health = new ClientHealth { HostCpuPercent = host, SchedulingLagP99Ms = lagP99, ThreadPoolQueueMax = queue, GcPauseMs = gc };

        // 20 % of 2 cores is 0.4 core: the process's share at which a full machine makes the second the client's.
        Assert.Equal(expected, ClientLimits.Default.Judge(process, health, processorCount: 2));
    }

    [Theory]
    [InlineData(2, 19, ClientLimitKinds.None)]
    [InlineData(2, 5, ClientLimitKinds.None)]
    [InlineData(2, 25, ClientLimitKinds.HostCpu)]
    [InlineData(8, 5, ClientLimitKinds.HostCpu)]
    [InlineData(8, 4.9, ClientLimitKinds.None)]
    public void Judge_AFullMachine_IsTheClientsLimit_OnlyWhileThisProcessUsesMoreThanALightClient(int cores, double process, ClientLimitKinds expected)
    {
        // Beside two CPU hogs a light client (a few thousand requests a second) is still given a core the moment it asks: its
        // scheduling lag stays low and it keeps its throughput, so a busy machine alone does not make its figures the client's.
        var busyHost = Healthy with { HostCpuPercent = 100 };

        Assert.Equal(expected, ClientLimits.Default.Judge(process, busyHost, processorCount: cores));
    }

    [Theory]
    [InlineData(12, 5, ClientLimitKinds.HostCpu)]
    [InlineData(31, 7, ClientLimitKinds.HostCpu)]
    [InlineData(31, 4.9, ClientLimitKinds.None)]
    public void Judge_AFullMachine_IsTheClientsLimit_WhenItsThreadsAlreadyWaitForACore_HoweverLittleCpuItGets(double process, double lagP99, ClientLimitKinds expected)
    {
        // A client pinned to one core beside two CPU hogs gets a third of it (0.12–0.31 core, under the 0.4-core bound) and lost
        // 80 % of its throughput to a local Redis: its threads waited for the core (lag p99 5–7 ms).
        var pinned = Healthy with { HostCpuPercent = 100, SchedulingLagP99Ms = lagP99 };

        Assert.Equal(expected, ClientLimits.Default.Judge(process, pinned, processorCount: 1));
    }

    [Theory]
    [InlineData(1_002.7, ClientLimitKinds.Paused)]
    [InlineData(200, ClientLimitKinds.Paused)]
    [InlineData(199, ClientLimitKinds.None)]
    public void Judge_AWakeUpAFifthOfASecondLate_IsAClientThatStoodStill(double lagMax, ClientLimitKinds expected)
    {
        // A SIGSTOP of one second is one wake-up: far above the p99's bound, but the p99 of the second's 200 does not see it.
        var stopped = Healthy with { SchedulingLagMaxMs = lagMax };

        Assert.Equal(expected, ClientLimits.Default.Judge(10, stopped));
    }

    [Fact]
    public void APause_IsTheClientsLimit_EvenInASecondThatWaitedOnTheService()
    {
        var stopped = new ClientHealth { HostCpuPercent = 40, SchedulingLagP99Ms = 0.4, SchedulingLagMaxMs = 1_002.7 };
        var kinds = ClientLimits.Default.Judge(10, stopped);

        Assert.Equal(ClientLimitKinds.Paused, ClientLimits.WaitingOnTheService(kinds, stopped, latencyP50Ms: null, answered: 0, inFlight: 32));
        Assert.Equal("the client was paused: stood still for 1,003 ms (its longest wake-up), host CPU 40 %, this process 10 %", ClientLimits.Describe(kinds, 10, stopped));
    }

    [Fact]
    public void Judge_IgnoresABound_WhenItIsSwitchedOff()
    {
        var limits = ClientLimits.Default with { HostCpuPercent = null, SchedulingLagP99Ms = null };
        var starved = new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = 500 };

        Assert.Equal(ClientLimitKinds.None, limits.Judge(10, starved));
    }

    [Fact]
    public void Judge_UnknownHostCpu_IsNeverACrossing()
    {
        Assert.Equal(ClientLimitKinds.None, ClientLimits.Default.Judge(10, Healthy with { HostCpuPercent = null }));
    }

    [Fact]
    public void Describe_StarvedClient_NamesTheLagTheHostAndThisProcess()
    {
        var health = new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = 180 };
        var kinds = ClientLimits.Default.Judge(22, health);

        Assert.Equal("the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %", ClientLimits.Describe(kinds, 22, health));
    }

    [Fact]
    public void Describe_BusyClient_SaysItWasItsOwnWork()
    {
        var health = new ClientHealth { HostCpuPercent = 99 };

        Assert.Equal("the client was busy: host CPU 99 %, this process 97 %", ClientLimits.Describe(ClientLimitKinds.ProcessCpu | ClientLimitKinds.HostCpu, 97, health));
    }

    [Fact]
    public void Describe_StalledThreadPool_SaysHowManyItemsWaited()
    {
        var health = new ClientHealth { HostCpuPercent = 60, ThreadPoolQueueMax = 4_200, GcPauseMs = 140 };

        Assert.Equal(
            "the client was stalled: 4,200 work items queued for the thread pool, 140 ms paused for garbage collection, host CPU 60 %, this process 50 %",
            ClientLimits.Describe(ClientLimitKinds.ThreadPoolQueue | ClientLimitKinds.GcPause, 50, health));
    }

    [Fact]
    public void Describe_HealthySecond_IsEmpty()
    {
        Assert.Equal("", ClientLimits.Describe(ClientLimitKinds.None, 10, Healthy));
    }

    [Fact]
    public void DescribeBounds_ListsTheDefaults_AndSaysWhenNoneIsJudged()
    {
        Assert.Equal(
            "this process's CPU ≥ 85 %, host CPU ≥ 95 % while this process uses ≥ 0.4 core or its scheduling lag p99 is ≥ 5 ms, scheduling lag p99 ≥ 10 ms, thread-pool queue ≥ 1,000, GC pauses ≥ 100 ms a second, a wake-up ≥ 200 ms late (the client stood still), open loop: ≥ 10 % of requests sent late",
            ClientLimits.Default.DescribeBounds());
        Assert.Equal("none (client health is not judged)", new ClientLimits
        {
            ProcessCpuPercent = null,
            HostCpuPercent = null,
            SchedulingLagP99Ms = null,
            ThreadPoolQueue = null,
            GcPauseMs = null,
            PauseMs = null,
            SentLatePercent = null,
        }.DescribeBounds());
    }

    [Theory]
    [InlineData(1_000, 0, false)]
    [InlineData(1_000, 99, false)]
    [InlineData(1_000, 100, true)]
    [InlineData(3, 3, true)]
    [InlineData(0, 0, false)]
    public void JudgeSchedule_IsTheSendersLimit_FromTheShareOfRequestsSentLate(long issued, long sentLate, bool behind)
    {
        Assert.Equal(behind ? ClientLimitKinds.SenderBehind : ClientLimitKinds.None, ClientLimits.Default.JudgeSchedule(issued, sentLate));
        Assert.Equal(ClientLimitKinds.None, (ClientLimits.Default with { SentLatePercent = null }).JudgeSchedule(issued, sentLate));
    }

    [Fact]
    public void Describe_ASenderBehindItsSchedule_AndNothingElse_SaysSo()
    {
        var text = ClientLimits.Describe(ClientLimitKinds.SenderBehind, 17, new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = 4 });

        Assert.Equal("the client fell behind its schedule: requests sent more than 10 ms after their intended start, host CPU 100 %, this process 17 %", text);
        Assert.StartsWith("the client was starved: ", ClientLimits.Describe(ClientLimitKinds.SenderBehind | ClientLimitKinds.SchedulingLag, 17, new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = 40 }), StringComparison.Ordinal);
    }
}
