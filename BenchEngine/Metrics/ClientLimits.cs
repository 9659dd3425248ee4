using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Text;

namespace BenchEngine.Metrics;

/// <summary>
/// The bounds past which a second's figures are the client's, not the service's (<see cref="ClientHealth.Limits"/>): one
/// verdict that the run page, the summary's per-second figures, the sweep's knee, compare and results all use.
/// </summary>
/// <remarks>The ranges of the fractional bounds are given in doubles: a range in whole numbers converts the value to one,
/// and NaN or 1e30 then throws instead of being refused by name. The defaults were measured on a 2-core machine alone and beside two CPU hogs (README, "Client health"): a healthy
/// second stays far below each of them, and a starved one crosses at least one. Set any bound to null to switch it off. The
/// dashboard reads them from <c>BenchWeb:ClientLimits</c>.</remarks>
public sealed record ClientLimits
{
    /// <summary>The bounds every run uses unless configured otherwise.</summary>
    public static readonly ClientLimits Default = new();

    /// <summary>This process's CPU, % of all cores: the client is busy with its own work (serialisation, TLS, the SDK).</summary>
    [Range(1d, 100d)]
    public double? ProcessCpuPercent { get; init; } = 85;

    /// <summary>The CPU of the cores this process may run on (all processes; the whole machine unless an affinity mask or cpuset
    /// narrows it), %: other processes leave the client no core to spare. It makes a
    /// second the client's only while this process uses at least <see cref="HostCpuProcessCores"/>.</summary>
    [Range(1d, 100d)]
    public double? HostCpuPercent { get; init; } = 95;

    /// <summary>How much CPU, in cores, this process must be using for a full machine (<see cref="HostCpuPercent"/>) to make the
    /// second the client's. A client that uses that much on a full machine wants more than it is given; a light one (a few
    /// thousand requests a second to a remote service) is still given a core the moment it asks, which its scheduling lag shows,
    /// and keeps its throughput (README, "Client health": beside two CPU hogs on 2 cores, a light client used 0.08–0.38 core and kept
    /// 96–100 % of its throughput; a CPU-bound one got 0.5–0.86 core and lost half of it).</summary>
    [Range(0d, 1_024d)]
    public double HostCpuProcessCores { get; init; } = 0.4;

    /// <summary>The scheduling lag p99, ms, that makes a full machine (<see cref="HostCpuPercent"/>) the client's limit however
    /// little CPU this process uses: its threads already wait for a core. A client pinned to one core beside two CPU hogs
    /// gets a third of it (0.12–0.31 core, below <see cref="HostCpuProcessCores"/>) and lost 80 % of its throughput to a
    /// local Redis with a lag p99 of 5–7 ms; light plans beside two hogs on 2 cores kept their throughput with 0.2–4 ms.</summary>
    [Range(0.1, 60_000)]
    public double? HostCpuLagP99Ms { get; init; } = 5;

    /// <summary>The p99 of a second's scheduling lag, ms: threads that are ready wait this long for a core.</summary>
    [Range(0.1, 60_000)]
    public double? SchedulingLagP99Ms { get; init; } = 10;

    /// <summary>Work items waiting for a thread-pool thread: responses wait in the client before they are counted.</summary>
    [Range(1, long.MaxValue)]
    public long? ThreadPoolQueue { get; init; } = 1_000;

    /// <summary>Garbage-collection pauses in one second, ms.</summary>
    [Range(1d, 1_000d)]
    public double? GcPauseMs { get; init; } = 100;

    /// <summary>The longest wake-up delay of a second, ms, past which the client stood still (<see cref="ClientLimitKinds.Paused"/>):
    /// stopped, frozen or preempted for that long, in a second whose scheduling lag p99 stayed under its bound. Healthy: well
    /// under 10 ms; beside two CPU hogs: tens of ms.</summary>
    [Range(1d, 60_000d)]
    public double? PauseMs { get; init; } = 200;

    /// <summary>Open loop: the share of a second's requests sent more than 10 ms after their intended start, %, past which the
    /// sender was behind its schedule (<see cref="ClientLimitKinds.SenderBehind"/>). A healthy open loop sends none late.</summary>
    [Range(0.1, 100d)]
    public double? SentLatePercent { get; init; } = 10;

    /// <summary><see cref="ClientLimitKinds.SenderBehind"/> when at least <see cref="SentLatePercent"/> of the
    /// <paramref name="issued"/> requests were sent late; none otherwise.</summary>
    public ClientLimitKinds JudgeSchedule(long issued, long sentLate) =>
        SentLatePercent is { } bound && issued > 0 && sentLate > 0 && sentLate * 100.0 >= bound * issued ? ClientLimitKinds.SenderBehind : ClientLimitKinds.None;

    /// <summary>How many times the client's scheduling lag p99 a second's median request must take for the service, not the
    /// client, to have set that second's pace (<see cref="WaitingOnTheService"/>): the client's delay is then at most a tenth of
    /// each request's time.</summary>
    public const double ServicePaceFactor = 10;

    /// <summary>The shortest median request, ms, that can make a second the service's pace (<see cref="WaitingOnTheService"/>):
    /// a service answering in a few milliseconds leaves a busy client its limits, whatever its lag.</summary>
    public const double ServicePaceMs = 100;

    /// <summary><paramref name="kinds"/> without the starvation bounds (<see cref="ClientLimitKinds.HostCpu"/>,
    /// <see cref="ClientLimitKinds.SchedulingLag"/>) when the second waited on the service: its median request took at least
    /// <see cref="ServicePaceMs"/> and <see cref="ServicePaceFactor"/> times the client's scheduling lag p99, or nothing was
    /// answered while requests were out
    /// (a stall, read as a second's wait). A busy machine then delayed the client by a few milliseconds while the service held
    /// its requests for hundreds: the throughput is the service's. The client's own limits (its CPU, the thread pool, GC, a
    /// sender behind its schedule) stay.</summary>
    /// <param name="kinds">The bounds the second's health crossed.</param>
    /// <param name="health">The second's health.</param>
    /// <param name="latencyP50Ms">The second's median latency; null when nothing succeeded in it.</param>
    /// <param name="answered">Responses in the second: successes, throttles and errors.</param>
    /// <param name="inFlight">Requests out at the second's end.</param>
    public static ClientLimitKinds WaitingOnTheService(ClientLimitKinds kinds, ClientHealth health, double? latencyP50Ms, long answered, long inFlight)
    {
        ArgumentNullException.ThrowIfNull(health);
        const ClientLimitKinds Starved = ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag;
        var wait = latencyP50Ms ?? (answered == 0 && inFlight > 0 ? 1_000 : null);
        return (kinds & Starved) != 0 && wait is { } waited && waited >= Math.Max(ServicePaceMs, ServicePaceFactor * health.SchedulingLagP99Ms)
            ? kinds & ~Starved
            : kinds;
    }

    /// <summary>Which bounds <paramref name="health"/> crosses, the process's CPU being <paramref name="processCpuPercent"/> (% of
    /// all <paramref name="processorCount"/> cores; this machine's by default).</summary>
    public ClientLimitKinds Judge(double processCpuPercent, ClientHealth health, int? processorCount = null)
    {
        ArgumentNullException.ThrowIfNull(health);
        var kinds = ClientLimitKinds.None;
        if (processCpuPercent >= ProcessCpuPercent)
        {
            kinds |= ClientLimitKinds.ProcessCpu;
        }

        var processCores = processCpuPercent / 100 * (processorCount ?? Environment.ProcessorCount);
        if (health.HostCpuPercent >= HostCpuPercent && (processCores >= HostCpuProcessCores || health.SchedulingLagP99Ms >= HostCpuLagP99Ms))
        {
            kinds |= ClientLimitKinds.HostCpu;
        }

        if (health.SchedulingLagP99Ms >= SchedulingLagP99Ms)
        {
            kinds |= ClientLimitKinds.SchedulingLag;
        }

        if (health.ThreadPoolQueueMax >= ThreadPoolQueue)
        {
            kinds |= ClientLimitKinds.ThreadPoolQueue;
        }

        if (health.GcPauseMs >= GcPauseMs)
        {
            kinds |= ClientLimitKinds.GcPause;
        }

        // A pause the p99 does not see: one long wake-up among the second's 200 (a lag p99 past its bound says it already).
        if (health.SchedulingLagMaxMs >= PauseMs && (kinds & ClientLimitKinds.SchedulingLag) == 0)
        {
            kinds |= ClientLimitKinds.Paused;
        }

        return kinds;
    }

    /// <summary>Why a second was client-limited, in words: "the client was starved: scheduling lag p99 180 ms, host CPU 100 %,
    /// this process 22 %" (starved: other processes held the cores) or "the client was busy: this process 97 %" (its own
    /// work). Empty for a healthy second.</summary>
    public static string Describe(ClientLimitKinds kinds, double processCpuPercent, ClientHealth health)
    {
        ArgumentNullException.ThrowIfNull(health);
        if (kinds == ClientLimitKinds.None)
        {
            return "";
        }

        var parts = new List<string>();
        if (kinds.HasFlag(ClientLimitKinds.SchedulingLag))
        {
            parts.Add(Invariant($"scheduling lag p99 {health.SchedulingLagP99Ms:0.#} ms"));
        }

        if (kinds.HasFlag(ClientLimitKinds.ThreadPoolQueue))
        {
            parts.Add(Invariant($"{health.ThreadPoolQueueMax:N0} work items queued for the thread pool"));
        }

        if (kinds.HasFlag(ClientLimitKinds.GcPause))
        {
            parts.Add(Invariant($"{health.GcPauseMs:0} ms paused for garbage collection"));
        }

        if (kinds.HasFlag(ClientLimitKinds.Paused))
        {
            parts.Add(Invariant($"stood still for {health.SchedulingLagMaxMs:N0} ms (its longest wake-up)"));
        }

        if (kinds.HasFlag(ClientLimitKinds.SenderBehind))
        {
            parts.Add(Invariant($"requests sent more than {SecondSnapshot.LateAfter.TotalMilliseconds:0} ms after their intended start"));
        }

        if (health.HostCpuPercent is { } host)
        {
            parts.Add(Invariant($"host CPU {host:0} %"));
        }

        parts.Add(Invariant($"this process {processCpuPercent:0} %"));

        // Starved: the machine was short of CPU but this process was not the one using it.
        var starved = !kinds.HasFlag(ClientLimitKinds.ProcessCpu)
            && (kinds.HasFlag(ClientLimitKinds.HostCpu) || kinds.HasFlag(ClientLimitKinds.SchedulingLag));
        var what = starved ? "the client was starved"
            : kinds.HasFlag(ClientLimitKinds.ProcessCpu) ? "the client was busy"
            : kinds == ClientLimitKinds.SenderBehind ? "the client fell behind its schedule"
            : kinds.HasFlag(ClientLimitKinds.Paused) ? "the client was paused"
            : "the client was stalled";
        var text = new StringBuilder(what).Append(": ").AppendJoin(", ", parts);
        return text.ToString();
    }

    /// <summary>The bounds in words, for the README's and the page's "why": "process CPU ≥ 85 %, host CPU ≥ 95 %, …".</summary>
    public string DescribeBounds()
    {
        var parts = new List<string>();
        if (ProcessCpuPercent is { } process)
        {
            parts.Add(Invariant($"this process's CPU ≥ {process:0.#} %"));
        }

        if (HostCpuPercent is { } host)
        {
            parts.Add(Invariant($"host CPU ≥ {host:0.#} % while this process uses ≥ {HostCpuProcessCores:0.##} core")
                + (HostCpuLagP99Ms is { } hostLag ? Invariant($" or its scheduling lag p99 is ≥ {hostLag:0.#} ms") : ""));
        }

        if (SchedulingLagP99Ms is { } lag)
        {
            parts.Add(Invariant($"scheduling lag p99 ≥ {lag:0.#} ms"));
        }

        if (ThreadPoolQueue is { } queue)
        {
            parts.Add(Invariant($"thread-pool queue ≥ {queue:N0}"));
        }

        if (GcPauseMs is { } gc)
        {
            parts.Add(Invariant($"GC pauses ≥ {gc:0} ms a second"));
        }

        if (PauseMs is { } pause)
        {
            parts.Add(Invariant($"a wake-up ≥ {pause:0} ms late (the client stood still)"));
        }

        if (SentLatePercent is { } late)
        {
            parts.Add(Invariant($"open loop: ≥ {late:0.#} % of requests sent late"));
        }

        return parts.Count == 0 ? "none (client health is not judged)" : string.Join(", ", parts);
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
