using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>
/// How healthy the client machine was during one second: the measurements that tell whether a second's figures are the
/// service's or the client's. The process's own CPU stays on <see cref="SecondSnapshot.ClientCpuPercent"/>.
/// </summary>
/// <remarks>Every figure is measured by <see cref="ClientHealthMonitor"/>, off the load's threads; a figure the operating
/// system does not tell is null. <see cref="Limits"/> says which of <see cref="ClientLimits"/>' bounds the second crossed.</remarks>
public sealed record ClientHealth
{
    /// <summary>CPU used by every process over the second on the cores this process may run on (its affinity mask: the whole
    /// machine unless <c>taskset</c> or a cpuset narrows it), as a share of those cores (0–100); under a cgroup CPU
    /// quota (a container), the larger of that and the group's use of its quota. Null where the OS does not tell.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? HostCpuPercent { get; init; }

    /// <summary>Scheduling lag: how much later than asked a dedicated thread sleeping in short steps woke up (median of the
    /// second's wake-ups), in ms. A machine with a free core wakes it within a fraction of a millisecond.</summary>
    public double SchedulingLagP50Ms { get; init; }

    /// <summary>The 99th percentile of the second's wake-up delays, in ms.</summary>
    public double SchedulingLagP99Ms { get; init; }

    /// <summary>The longest wake-up delay of the second, in ms (a garbage-collection pause or a preemption shows here).</summary>
    public double SchedulingLagMaxMs { get; init; }

    /// <summary>How late the run's clock closed this second, in ms (its own thread, so a starved thread pool cannot delay it).</summary>
    public double ClockLagMs { get; init; }

    /// <summary>The longest queue of work items waiting for a thread-pool thread seen during the second.</summary>
    public long ThreadPoolQueueMax { get; init; }

    /// <summary>Thread-pool threads at the second's end.</summary>
    public int ThreadPoolThreads { get; init; }

    /// <summary>Threads the pool added during the second: the runtime injects threads when its queue does not drain
    /// (starvation), so a steady run adds none.</summary>
    public int ThreadInjections { get; init; }

    /// <summary>Time this process spent paused for garbage collection during the second, in ms.</summary>
    public double GcPauseMs { get; init; }

    /// <summary>Memory still available to this client (the machine's, or the cgroup's limit less its use when lower), in MiB;
    /// null where the OS does not tell.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public long? AvailableMemoryMb { get; init; }

    /// <summary>Which bounds of <see cref="ClientLimits"/> the second crossed: none for a healthy second.</summary>
    public ClientLimitKinds Limits { get; init; }

    /// <summary>The second's figures were the client's, not the service's: it crossed at least one bound.</summary>
    [JsonIgnore]
    public bool IsClientLimited => Limits != ClientLimitKinds.None;
}
