using System.Globalization;
using System.Runtime.InteropServices;

namespace BenchEngine.Metrics;

/// <summary>What the operating system tells of the whole machine: CPU time of every process, and memory still available,
/// within the cgroup's limits when this process runs in one (a container, App Service for Linux).</summary>
internal static partial class HostCounters
{
    /// <summary>Busy and total CPU time of the machine so far, in any unit; null where the OS does not tell.</summary>
    public static (double Busy, double Total)? ReadMachineCpu()
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                // The first line of /proc/stat: user nice system idle iowait irq softirq steal (guest time is inside user).
                using var reader = new StreamReader("/proc/stat");
                var fields = reader.ReadLine()?.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (fields is not { Length: >= 9 } || fields[0] != "cpu")
                {
                    return null;
                }

                double total = 0;
                for (var k = 1; k <= 8; k++)
                {
                    total += double.Parse(fields[k], CultureInfo.InvariantCulture);
                }

                var idle = double.Parse(fields[4], CultureInfo.InvariantCulture) + double.Parse(fields[5], CultureInfo.InvariantCulture);
                return (total - idle, total);
            }

            if (OperatingSystem.IsWindows() && GetSystemTimes(out var idleTime, out var kernel, out var user))
            {
                // Kernel time includes idle time.
                return (kernel + user - idleTime, kernel + user);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            // Not told: the figure is null, the run goes on.
        }

        return null;
    }

    /// <summary>The cgroup's CPU quota in cores (null: no quota), and its CPU use so far in seconds.</summary>
    public static (double? QuotaCores, double UsageSeconds)? ReadCgroupCpu(string? cgroup)
    {
        if (cgroup is null)
        {
            return null;
        }

        try
        {
            var max = File.ReadAllText(Path.Combine(cgroup, "cpu.max")).Split(' ', StringSplitOptions.RemoveEmptyEntries);
            double? quota = max is [var q, var p] && q != "max" ? double.Parse(q, CultureInfo.InvariantCulture) / double.Parse(p, CultureInfo.InvariantCulture) : null;
            foreach (var line in File.ReadLines(Path.Combine(cgroup, "cpu.stat")))
            {
                if (line.StartsWith("usage_usec ", StringComparison.Ordinal))
                {
                    return (quota, double.Parse(line.AsSpan(11), CultureInfo.InvariantCulture) / 1e6);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            // No cgroup v2 controller here.
        }

        return null;
    }

    /// <summary>Memory still available, in bytes: the machine's (Linux: MemAvailable), or the cgroup's limit less its use when
    /// that is lower. Elsewhere what the runtime last saw (its limit less the memory load at the last collection).</summary>
    public static long? ReadAvailableMemory(string? cgroup)
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                long? available = null;
                foreach (var line in File.ReadLines("/proc/meminfo"))
                {
                    if (line.StartsWith("MemAvailable:", StringComparison.Ordinal))
                    {
                        available = long.Parse(line.AsSpan(13).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
                        break;
                    }
                }

                if (cgroup is not null && File.Exists(Path.Combine(cgroup, "memory.max")))
                {
                    var max = File.ReadAllText(Path.Combine(cgroup, "memory.max")).Trim();
                    if (max != "max")
                    {
                        var left = long.Parse(max, CultureInfo.InvariantCulture) - long.Parse(File.ReadAllText(Path.Combine(cgroup, "memory.current")).Trim(), CultureInfo.InvariantCulture);
                        available = available is { } a ? Math.Min(a, left) : left;
                    }
                }

                return available is { } value ? Math.Max(0, value) : null;
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }

        var info = GC.GetGCMemoryInfo();
        return info.TotalAvailableMemoryBytes > 0 ? Math.Max(0, info.TotalAvailableMemoryBytes - info.MemoryLoadBytes) : null;
    }

    /// <summary>This process's cgroup v2 folder, or null when there is none.</summary>
    public static string? FindCgroup()
    {
        try
        {
            if (!OperatingSystem.IsLinux() || !File.Exists("/sys/fs/cgroup/cgroup.controllers"))
            {
                return null;
            }

            // "0::/some/path" for cgroup v2; inside a container's namespace usually "0::/".
            foreach (var line in File.ReadLines("/proc/self/cgroup"))
            {
                if (line.StartsWith("0::", StringComparison.Ordinal))
                {
                    var folder = Path.Join("/sys/fs/cgroup", line[3..]);
                    return Directory.Exists(folder) ? folder : "/sys/fs/cgroup";
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // No cgroup information.
        }

        return null;
    }

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetSystemTimes(out long idleTime, out long kernelTime, out long userTime);
}
