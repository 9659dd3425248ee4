namespace Benchmarks;

/// <summary>How busy the machine is: the benchmark's machine may be shared, so the benchmarks that measure the client say so,
/// and wait for a quiet host where a run must be alone.</summary>
internal static class HostLoad
{
    /// <summary>The machine's load average over the last minute (Linux): the benchmark's machine may be shared.</summary>
    public static string LoadAverage() => File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "unknown";

    /// <summary>Waits, at most a minute, for two seconds in a row with the host's CPU below 15 %; says what it last measured.</summary>
    public static async Task<string> QuietHostAsync()
    {
        var quietSeconds = 0;
        double? last = null;
        for (var i = 0; i < 60 && quietSeconds < 2; i++)
        {
            last = await HostCpuOverASecondAsync();
            quietSeconds = last is null or < 15 ? quietSeconds + 1 : 0;
        }

        return last is null ? "unknown" : $"{last:F0} % ({(quietSeconds >= 2 ? "quiet" : "still busy after a minute")})";
    }

    // The host's CPU busy share over a second, as the client-health monitor reads it (null where the OS does not tell).
    private static async Task<double?> HostCpuOverASecondAsync()
    {
        var before = BenchEngine.Metrics.HostCounters.ReadMachineCpu();
        await Task.Delay(TimeSpan.FromSeconds(1));
        var after = BenchEngine.Metrics.HostCounters.ReadMachineCpu();
        return before is { } b && after is { } a && a.Total > b.Total ? (a.Busy - b.Busy) * 100 / (a.Total - b.Total) : null;
    }
}
