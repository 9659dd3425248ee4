using System.Globalization;

namespace Benchmarks;

/// <summary>CPU times read from <c>/proc/PID/stat</c> (Linux), which counts them in clock ticks of 1/100 s: the peers' own
/// CPU, and the servers'.</summary>
internal static class CpuTimes
{
    /// <summary>A process's user + system CPU time so far (utime and stime of /proc/PID/stat, in clock ticks).</summary>
    public static TimeSpan ProcessCpu(int pid) =>
        // After the name: field 3 (state) is fields[0], so utime (14) and stime (15) are fields[11] and fields[12].
        TwoFields($"/proc/{pid}/stat", 11);

    /// <summary>The CPU time of this process's children that have been waited for (cutime + cstime of /proc/self/stat, in
    /// clock ticks).</summary>
    public static TimeSpan ChildrenCpu() =>
        // After the name: field 3 (state) is fields[0], so cutime (16) and cstime (17) are fields[13] and fields[14].
        TwoFields("/proc/self/stat", 13);

    // The field at index first after the process's name plus the one after it (clock ticks), as a time.
    private static TimeSpan TwoFields(string path, int first)
    {
        var stat = File.ReadAllText(path);
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        var ticks = long.Parse(fields[first], CultureInfo.InvariantCulture) + long.Parse(fields[first + 1], CultureInfo.InvariantCulture);
        return TimeSpan.FromSeconds(ticks / 100.0);
    }
}
