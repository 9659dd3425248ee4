using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

/// <summary>The monitor measures the real machine: these tests check that its figures are there and within their ranges,
/// never how large they are (that depends on the machine's load; the client-health benchmark measures it).</summary>
[UnitTest]
public class ClientHealthMonitorTests
{
    [Fact]
    public async Task Sample_AfterAWhile_HasEveryFigureInItsRange()
    {
        using var monitor = new ClientHealthMonitor();
        monitor.Start();
        await Task.Delay(TimeSpan.FromMilliseconds(200));

        var health = monitor.Sample(12, TimeSpan.FromMilliseconds(3));

        Assert.InRange(health.SchedulingLagP50Ms, 0, health.SchedulingLagP99Ms);
        Assert.InRange(health.SchedulingLagP99Ms, 0, health.SchedulingLagMaxMs);
        Assert.Equal(3, health.ClockLagMs);
        Assert.True(health.ThreadPoolQueueMax >= 0);
        Assert.True(health.GcPauseMs >= 0);
        Assert.True(health.ThreadInjections >= 0);
        if (OperatingSystem.IsLinux())
        {
            Assert.InRange(health.HostCpuPercent!.Value, 0, 100);
            Assert.True(health.AvailableMemoryMb > 0);
        }
    }

    [Fact]
    public async Task Sample_JudgesAgainstItsLimits()
    {
        // A bound every machine crosses: any wake-up is at least 0 ms late.
        using var monitor = new ClientHealthMonitor(new ClientLimits { ProcessCpuPercent = 1, HostCpuPercent = null, SchedulingLagP99Ms = null, ThreadPoolQueue = null, GcPauseMs = null });
        monitor.Start();
        await Task.Delay(TimeSpan.FromMilliseconds(50));

        Assert.Equal(ClientLimitKinds.ProcessCpu, monitor.Sample(1, TimeSpan.Zero).Limits);
        Assert.Equal(ClientLimitKinds.None, monitor.Sample(0.5, TimeSpan.Zero).Limits);
    }

    [Fact]
    public void Sample_PinnedToABusyCoreOfAnIdleMachine_ReadsThatCoreFullAndJudgesItTheClients()
    {
        // Second 0: the machine's counters as in HostCountersTests; second 1: 100 ticks later on each core, CPU 1 busy
        // throughout, CPU 0 idle. The all-CPU line reads 50 %, the core this client may run on 100 %.
        string[] stats =
        [
            HostCountersTests.PinnedBesideHogs,
            """
            cpu  1100 0 200 1100 0 0 0 0 0 0
            cpu0 0 0 0 1100 0 0 0 0 0 0
            cpu1 1100 0 200 0 0 0 0 0 0 0
            """,
        ];
        var reads = 0;
        using var monitor = new ClientHealthMonitor(new ClientLimits { ProcessCpuPercent = null, SchedulingLagP99Ms = null, ThreadPoolQueue = null, GcPauseMs = null })
        {
            ReadMachineCpu = () => HostCounters.ParseProcStat(new StringReader(stats[Math.Min(reads++, 1)]), new HashSet<int> { 1 }),
        };
        monitor.Start();

        // The process uses its one core in full: 100 % of it, whatever this machine's count of cores.
        var health = monitor.Sample(100.0 / Environment.ProcessorCount, TimeSpan.Zero);

        Assert.Equal(100, health.HostCpuPercent);
        Assert.Equal(ClientLimitKinds.HostCpu, health.Limits);
    }

    [Fact]
    public void Dispose_StopsTheProbeThread_EvenWhenNeverSampled()
    {
        var monitor = new ClientHealthMonitor();
        monitor.Start();

        monitor.Dispose();

        // A second dispose must not throw either.
        Assert.Null(Record.Exception(monitor.Dispose));
    }
}
