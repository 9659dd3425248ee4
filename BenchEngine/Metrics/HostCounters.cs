using System.Globalization;
using System.Runtime.InteropServices;

namespace BenchEngine.Metrics;

/// <summary>What the operating system tells of the machine: CPU time of every process on the CPUs this process may use, and memory still available,
/// within the cgroup's limits when this process runs in one (a container, App Service for Linux).</summary>
internal static partial class HostCounters
{
    /// <summary>Busy and total CPU time so far, in any unit, of the CPUs this process may run on (Linux: its affinity mask, which
    /// a cpuset or <c>taskset</c> narrows; elsewhere, or when the mask cannot be read, the whole machine's); null where the OS
    /// does not tell.</summary>
    /// <remarks>The same CPUs that <see cref="Environment.ProcessorCount"/> and this process's CPU % count: a client pinned to
    /// one busy core of an otherwise idle machine is starved though the machine reads half idle.</remarks>
    public static (double Busy, double Total)? ReadMachineCpu()
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                using var reader = new StreamReader("/proc/stat");
                return ParseProcStat(reader, ReadAffinity());
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

    /// <summary>Busy and total CPU time from the text of Linux's <c>/proc/stat</c>: the sum of the <c>cpuN</c> lines of
    /// <paramref name="cpus"/>, or the all-CPU <c>cpu</c> line when <paramref name="cpus"/> is null or names no CPU listed.</summary>
    internal static (double Busy, double Total)? ParseProcStat(TextReader procStat, IReadOnlySet<int>? cpus)
    {
        (double Busy, double Total)? all = null;
        (double Busy, double Total)? mine = null;
        // The cpu lines come first: "cpu" (all CPUs), then "cpu0", "cpu1"… (online CPUs only); each gives
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        while (procStat.ReadLine() is { } line && line.StartsWith("cpu", StringComparison.Ordinal))
        {
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length < 9)
            {
                continue;
            }

            if (fields[0] == "cpu")
            {
                all = Times(fields);
                if (cpus is null)
                {
                    break;
                }
            }
            else if (cpus is not null && int.TryParse(fields[0].AsSpan(3), NumberStyles.None, CultureInfo.InvariantCulture, out var cpu) && cpus.Contains(cpu))
            {
                var times = Times(fields);
                mine = mine is { } sum ? (sum.Busy + times.Busy, sum.Total + times.Total) : times;
            }
        }

        return mine ?? all;

        static (double Busy, double Total) Times(string[] fields)
        {
            double total = 0;
            for (var k = 1; k <= 8; k++)
            {
                total += double.Parse(fields[k], CultureInfo.InvariantCulture);
            }

            var idle = double.Parse(fields[4], CultureInfo.InvariantCulture) + double.Parse(fields[5], CultureInfo.InvariantCulture);
            return (total - idle, total);
        }
    }

    /// <summary>The CPUs this process may run on (Linux's <c>sched_getaffinity</c> of its main thread, which threads it starts
    /// inherit), or null when they cannot be read: another OS, a C library without the call, more CPUs than the mask holds.</summary>
    internal static IReadOnlySet<int>? ReadAffinity()
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        try
        {
            // 8,192 CPUs: the kernel refuses (EINVAL) a mask smaller than its own, and then the whole machine is read.
            var mask = new byte[1024];
            if (SchedGetAffinity(Environment.ProcessId, (nuint)mask.Length, mask) != 0)
            {
                return null;
            }

            var cpus = new HashSet<int>();
            for (var i = 0; i < mask.Length * 8; i++)
            {
                if ((mask[i / 8] & (1 << (i % 8))) != 0)
                {
                    cpus.Add(i);
                }
            }

            return cpus.Count > 0 ? cpus : null;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return null;
        }
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

    [LibraryImport("libc", EntryPoint = "sched_getaffinity")]
    private static partial int SchedGetAffinity(int pid, nuint size, [Out] byte[] mask);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetSystemTimes(out long idleTime, out long kernelTime, out long userTime);
}
