using System.Diagnostics;

namespace BenchEngine.Metrics;

/// <summary>
/// Measures the client's health (<see cref="ClientHealth"/>) from a thread of its own: a thread that sleeps in steps of
/// <see cref="ProbeInterval"/> and notes how late it wakes (the scheduling lag) and how many work items wait for the thread
/// pool; at each sample, the CPU of the cores this process may run on and the machine's memory from the OS, garbage-collection pauses and thread injections from the
/// runtime.
/// </summary>
/// <remarks>Nothing here runs on the load's threads or the thread pool, so a starved pool is measured, not suffered; the probe
/// costs one wake-up every <see cref="ProbeInterval"/> (README, "client-health" benchmark: ≤ 2 % of throughput).
/// Wall-clock by nature: it measures the real machine, whatever clock the run is timed with.</remarks>
public sealed class ClientHealthMonitor(ClientLimits limits) : IClientHealthSource
{
    /// <summary>How long the probe thread sleeps between two looks: 200 wake-ups a second, enough for a p99 per second.</summary>
    public static readonly TimeSpan ProbeInterval = TimeSpan.FromMilliseconds(5);

    private readonly Lock _gate = new();
    // No spinning before the wait blocks: a spin ends in yields, and beside busy processes each yield can hand the core away
    // for a whole time slice, which the probe would then report as the machine's lag.
    private readonly ManualResetEventSlim _stopping = new(initialState: false, spinCount: 0);
    private readonly string? _cgroup = HostCounters.FindCgroup();
    private LatencyDistribution _lag = new();
    private LatencyDistribution _spareLag = new();
    private long _queueMax;
    private Thread? _thread;
    private (double Busy, double Total)? _lastMachine;
    private (double? QuotaCores, double UsageSeconds)? _lastCgroup;
    private long _lastTimestamp;
    private TimeSpan _lastGcPause;
    private int _lastThreads;
    private int _disposed;

    public ClientHealthMonitor()
        : this(ClientLimits.Default)
    {
    }

    /// <summary>Reads busy and total CPU time of the CPUs this process may run on (tests script it).</summary>
    internal Func<(double Busy, double Total)?> ReadMachineCpu { get; init; } = HostCounters.ReadMachineCpu;

    public void Start()
    {
        if (_thread is not null)
        {
            return;
        }

        _lastMachine = ReadMachineCpu();
        _lastCgroup = HostCounters.ReadCgroupCpu(_cgroup);
        _lastTimestamp = Stopwatch.GetTimestamp();
        _lastGcPause = GC.GetTotalPauseDuration();
        _lastThreads = ThreadPool.ThreadCount;
        _thread = new Thread(Probe) { IsBackground = true, Name = "BenchEngine client health" };
        _thread.Start();
    }

    public ClientHealth Sample(double processCpuPercent, TimeSpan clockLag)
    {
        LatencyDistribution lag;
        long queueMax;
        lock (_gate)
        {
            lag = _lag;
            _lag = _spareLag;
            queueMax = Math.Max(_queueMax, ThreadPool.PendingWorkItemCount);
            _queueMax = 0;
        }

        var now = Stopwatch.GetTimestamp();
        var wallSeconds = Stopwatch.GetElapsedTime(_lastTimestamp, now).TotalSeconds;
        _lastTimestamp = now;
        var machine = ReadMachineCpu();
        var cgroup = HostCounters.ReadCgroupCpu(_cgroup);
        var gcPause = GC.GetTotalPauseDuration();
        var threads = ThreadPool.ThreadCount;
        var health = new ClientHealth
        {
            HostCpuPercent = HostCpu(machine, cgroup, wallSeconds),
            SchedulingLagP50Ms = lag.MillisecondsAtPercentile(50),
            SchedulingLagP99Ms = lag.MillisecondsAtPercentile(99),
            SchedulingLagMaxMs = lag.MaxMicroseconds / 1000.0,
            ClockLagMs = Math.Max(0, clockLag.TotalMilliseconds),
            ThreadPoolQueueMax = queueMax,
            ThreadPoolThreads = threads,
            ThreadInjections = Math.Max(0, threads - _lastThreads),
            GcPauseMs = (gcPause - _lastGcPause).TotalMilliseconds,
            AvailableMemoryMb = HostCounters.ReadAvailableMemory(_cgroup) is { } bytes ? bytes / (1024 * 1024) : null,
        };
        _lastMachine = machine;
        _lastCgroup = cgroup;
        _lastGcPause = gcPause;
        _lastThreads = threads;
        lag.Reset();
        _spareLag = lag;
        return health with { Limits = limits.Judge(processCpuPercent, health) };
    }

    private double? HostCpu((double Busy, double Total)? machine, (double? QuotaCores, double UsageSeconds)? cgroup, double wallSeconds)
    {
        double? percent = null;
        if (machine is { } m && _lastMachine is { } before && m.Total > before.Total)
        {
            percent = Math.Clamp((m.Busy - before.Busy) / (m.Total - before.Total) * 100, 0, 100);
        }

        // In a container with a CPU quota the group's share of its quota is what runs out first.
        if (cgroup is { QuotaCores: { } quota } c && _lastCgroup is { } earlier && wallSeconds > 0 && quota > 0)
        {
            var ofQuota = Math.Clamp((c.UsageSeconds - earlier.UsageSeconds) / (quota * wallSeconds) * 100, 0, 100);
            percent = Math.Max(percent ?? 0, ofQuota);
        }

        return percent;
    }

    private void Probe()
    {
        var intervalTicks = (long)(ProbeInterval.TotalSeconds * Stopwatch.Frequency);
        while (true)
        {
            var before = Stopwatch.GetTimestamp();
            if (_stopping.Wait(ProbeInterval))
            {
                return;
            }

            var late = Stopwatch.GetTimestamp() - before - intervalTicks;
            var queued = ThreadPool.PendingWorkItemCount;
            lock (_gate)
            {
                _lag.RecordMicroseconds(Math.Max(0, late) * 1_000_000 / Stopwatch.Frequency);
                _queueMax = Math.Max(_queueMax, queued);
            }
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _stopping.Set();
        _thread?.Join();
        _stopping.Dispose();
    }
}
