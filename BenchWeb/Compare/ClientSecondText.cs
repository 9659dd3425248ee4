using System.Globalization;
using BenchEngine.Metrics;

namespace BenchWeb.Compare;

/// <summary>A run's worst client second (<see cref="RunSummary.WorstClientSecond"/>) in words, as the run page, compare and
/// results say it: "second 24: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %" when it
/// was client-limited, "second 7: host CPU 63 %, this process 41 %, scheduling lag p99 2.1 ms" when it was not.</summary>
public static class ClientSecondText
{
    /// <summary>The second's index, host CPU, this process's CPU and scheduling lag p99, with the reason words when it was
    /// client-limited; null for a run whose seconds had no client health (measured before it was kept).</summary>
    public static string? Describe(ClientSecond? second)
    {
        if (second is null)
        {
            return null;
        }

        var health = second.Health;
        var lag = string.Create(CultureInfo.InvariantCulture, $"scheduling lag p99 {health.SchedulingLagP99Ms:0.#} ms");
        if (second.Reason.Length > 0)
        {
            // The reason names the figures of the bounds crossed, host CPU and this process; the lag is added when it is not one.
            return $"second {second.Index}: {second.Reason}" + (health.Limits.HasFlag(ClientLimitKinds.SchedulingLag) ? "" : ", " + lag);
        }

        var host = health.HostCpuPercent is { } h ? string.Create(CultureInfo.InvariantCulture, $"host CPU {h:0} %, ") : "";
        return string.Create(CultureInfo.InvariantCulture, $"second {second.Index}: {host}this process {second.ClientCpuPercent:0} %, {lag}");
    }
}
