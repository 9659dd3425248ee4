using System.Diagnostics;
using System.Numerics;
using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

/// <summary>Host CPU is read from the CPUs this process may run on: a client pinned to one busy core of an idle two-core machine
/// is starved, though the machine's all-CPU line reads it half idle.</summary>
[UnitTest]
public class HostCountersTests
{
    // Two cores: CPU 0 idle, CPU 1 busy all the time (two CPU hogs beside a client pinned there with taskset -c 1).
    internal const string PinnedBesideHogs = """
        cpu  1000 0 200 1000 0 0 0 0 0 0
        cpu0 0 0 0 1000 0 0 0 0 0 0
        cpu1 1000 0 200 0 0 0 0 0 0 0
        intr 123456 0 0
        ctxt 98765
        """;

    [Fact]
    public void ParseProcStat_WithAnAffinityMask_SumsOnlyThoseCpus()
    {
        var times = HostCounters.ParseProcStat(new StringReader(PinnedBesideHogs), new HashSet<int> { 1 });

        Assert.Equal((1200d, 1200d), times);
    }

    [Fact]
    public void ParseProcStat_WithoutAMask_ReadsTheAllCpuLine()
    {
        var times = HostCounters.ParseProcStat(new StringReader(PinnedBesideHogs), cpus: null);

        Assert.Equal((1200d, 2200d), times);
    }

    [Fact]
    public void ParseProcStat_WithEveryCpuInTheMask_SumsThemAll()
    {
        var times = HostCounters.ParseProcStat(new StringReader(PinnedBesideHogs), new HashSet<int> { 0, 1 });

        Assert.Equal((1200d, 2200d), times);
    }

    [Fact]
    public void ParseProcStat_WhenTheMaskNamesNoListedCpu_FallsBackToTheAllCpuLine()
    {
        var times = HostCounters.ParseProcStat(new StringReader(PinnedBesideHogs), new HashSet<int> { 7 });

        Assert.Equal((1200d, 2200d), times);
    }

    [Fact]
    public void ParseProcStat_IgnoresTheLinesAfterTheCpuLines()
    {
        // The cpu lines end at the first other line: a later line that starts alike is not read.
        var text = PinnedBesideHogs + "\ncpu7 5 5 5 5 5 5 5 5 0 0\n";

        var times = HostCounters.ParseProcStat(new StringReader(text), new HashSet<int> { 1, 7 });

        Assert.Equal((1200d, 1200d), times);
    }

    [Fact]
    public void ReadAffinity_OnLinux_IsTheProcessorAffinityMask()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.Null(HostCounters.ReadAffinity());
            return;
        }

        var cpus = HostCounters.ReadAffinity();

        Assert.NotNull(cpus);
        var mask = (ulong)Process.GetCurrentProcess().ProcessorAffinity;
        Assert.Equal(BitOperations.PopCount(mask), cpus.Count);
        Assert.All(cpus, cpu => Assert.NotEqual(0UL, mask & (1UL << cpu)));
        // The runtime's count honours the mask too (and a CPU quota, which may lower it).
        Assert.InRange(Environment.ProcessorCount, 1, cpus.Count);
    }
}
