using BenchEngine.Metrics;

namespace BenchWeb.Tests.Support;

/// <summary>Seeded seconds (<see cref="SeededRuns.Seconds"/>) with the client health the engine measures: healthy, except the
/// seconds named starved, where other processes held the cores (host CPU 100 %, scheduling lag p99 180 ms, this process 22 %).</summary>
internal static class ClientHealthSeconds
{
    public static readonly ClientHealth Healthy = new()
    {
        HostCpuPercent = 45,
        SchedulingLagP50Ms = 0.2,
        SchedulingLagP99Ms = 1.5,
        SchedulingLagMaxMs = 3,
        ThreadPoolThreads = 8,
        GcPauseMs = 2,
        AvailableMemoryMb = 4_096,
    };

    public static readonly ClientHealth Starved = Healthy with { HostCpuPercent = 100, SchedulingLagP99Ms = 180, SchedulingLagMaxMs = 240 };

    /// <summary>This process's CPU in a starved second.</summary>
    public const double StarvedProcessCpu = 22;

    /// <summary>How the run page, compare and results say a starved second.</summary>
    public const string StarvedReason = "the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %";

    public static List<SecondSnapshot> Of(IEnumerable<SecondSnapshot> seconds, params int[] starved) =>
        seconds.Select(s =>
        {
            var isStarved = starved.Contains(s.Index);
            var cpu = isStarved ? StarvedProcessCpu : s.ClientCpuPercent;
            var health = isStarved ? Starved : Healthy;
            // On 4 cores, 22 % is 0.88 of a core: past the 0.4 core at which a full host makes a second the client's.
            return s with { ClientCpuPercent = cpu, Health = health with { Limits = ClientLimits.Default.Judge(cpu, health, processorCount: 4) } };
        }).ToList();

    /// <summary>Seconds whose every request is in one bucket: each second's requests sent are answered in it (ok, given up,
    /// error) or abandoned at the stop, and an open loop's dropped and not-started requests beside them.</summary>
    public static List<SecondSnapshot> Accounted(IEnumerable<SecondSnapshot> seconds)
    {
        var list = seconds.ToList();
        return list.Select(s =>
        {
            var last = s.Index == list[^1].Index;
            var givenUp = s.Index == 1 ? 1 : 0;
            var abandoned = last ? 3 : 0;
            return s with
            {
                Errors = 2,
                GivenUpRequests = givenUp,
                GivenUp = givenUp,
                Abandoned = abandoned,
                Issued = s.OkRequests + 2 + givenUp + abandoned,
                Dropped = 10,
                SentLate = 4,
                NotStarted = last ? 7 : 0,
                InFlight = 0,
            };
        }).ToList();
    }
}
