using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>The bounds of <see cref="ClientLimits"/> a second crossed.</summary>
[Flags]
[JsonConverter(typeof(JsonStringEnumConverter<ClientLimitKinds>))]
public enum ClientLimitKinds
{
    None = 0,

    /// <summary>This process used at least <see cref="ClientLimits.ProcessCpuPercent"/> of all cores.</summary>
    ProcessCpu = 1,

    /// <summary>The cores this process may run on (all processes) were busy at least <see cref="ClientLimits.HostCpuPercent"/> of the time.</summary>
    HostCpu = 2,

    /// <summary>Threads waited at least <see cref="ClientLimits.SchedulingLagP99Ms"/> for a core (p99 of the second).</summary>
    SchedulingLag = 4,

    /// <summary>At least <see cref="ClientLimits.ThreadPoolQueue"/> work items waited for a thread-pool thread.</summary>
    ThreadPoolQueue = 8,

    /// <summary>Garbage collection paused the process for at least <see cref="ClientLimits.GcPauseMs"/> of the second.</summary>
    GcPause = 16,

    /// <summary>Open loop: at least <see cref="ClientLimits.SentLatePercent"/> of the second's requests were sent more than
    /// <see cref="SecondSnapshot.LateAfter"/> after their intended start. The sender could not keep its schedule, whatever
    /// the cores and the pool say: a request is sent late only on the client's side (one due while the cap of outstanding
    /// requests is reached is dropped, not delayed).</summary>
    SenderBehind = 32,

    /// <summary>The client stood still: a thread of its own woke at least <see cref="ClientLimits.PauseMs"/> late (the
    /// second's longest wake-up), so for that long it neither sent nor took an answer (the process stopped, frozen or
    /// preempted), in a second whose scheduling lag p99 stayed under its bound: one such pause is one wake-up of the
    /// second's 200, which the percentile does not see.</summary>
    Paused = 64,
}
