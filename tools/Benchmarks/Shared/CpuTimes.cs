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

    /// <summary>The CPU time so far of the processes under <paramref name="root"/> (children, theirs, and so on; not the root)
    /// whose name (<c>/proc/PID/comm</c>) starts with <paramref name="name"/>: the Chromium processes this program started,
    /// not another's.</summary>
    public static TimeSpan DescendantsCpu(int root, string name)
    {
        var parents = new Dictionary<int, int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && Read($"{directory}/stat") is { } stat)
            {
                // After the name: field 4 (ppid) is fields[1].
                parents[pid] = int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1], CultureInfo.InvariantCulture);
            }
        }

        var total = TimeSpan.Zero;
        foreach (var pid in parents.Keys)
        {
            if (IsUnder(pid) && Read($"/proc/{pid}/comm") is { } comm && comm.StartsWith(name, StringComparison.Ordinal))
            {
                try
                {
                    total += ProcessCpu(pid);
                }
                catch (IOException)
                {
                    // It ended meanwhile.
                }
            }
        }

        return total;

        bool IsUnder(int pid)
        {
            for (var hops = 0; hops < 64 && parents.TryGetValue(pid, out var parent); hops++, pid = parent)
            {
                if (parent == root)
                {
                    return true;
                }
            }

            return false;
        }

        static string? Read(string path)
        {
            try
            {
                return File.ReadAllText(path);
            }
            catch (IOException)
            {
                return null;
            }
        }
    }

    // The field at index first after the process's name plus the one after it (clock ticks), as a time.
    private static TimeSpan TwoFields(string path, int first)
    {
        var stat = File.ReadAllText(path);
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        var ticks = long.Parse(fields[first], CultureInfo.InvariantCulture) + long.Parse(fields[first + 1], CultureInfo.InvariantCulture);
        return TimeSpan.FromSeconds(ticks / 100.0);
    }
}
