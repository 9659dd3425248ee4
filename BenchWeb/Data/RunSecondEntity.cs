using System.Text.Json;
using BenchEngine.Metrics;

namespace BenchWeb.Data;

/// <summary>One closed second of a run: the row saved as it closes (a crash loses at most the current second) and,
/// as it is, the message the runs hub sends to everyone watching the run. It comes from the engine's
/// <see cref="SecondSnapshot"/> through <see cref="From"/> alone.</summary>
public sealed class RunSecondEntity
{
    public long RunId { get; set; }

    /// <summary>0-based second of the run.</summary>
    public int Index { get; set; }

    /// <summary>Time since the start at the end of this second, in seconds.</summary>
    public double ElapsedSeconds { get; set; }

    /// <summary>Length of this second: 1, except for the last, usually partial, one.</summary>
    public double DurationSeconds { get; set; }

    public long Ok { get; set; }

    public long OkRequests { get; set; }

    public long Throttled { get; set; }

    public long Errors { get; set; }

    /// <summary>Errors by status code as JSON (<c>{"409":3}</c>), or null when there were none.</summary>
    public string? ErrorsByStatusJson { get; set; }

    public double RequestUnits { get; set; }

    public long Bytes { get; set; }

    /// <summary>Requests sent in this second.</summary>
    public long Issued { get; set; }

    /// <summary>Open loop: requests due in this second but not sent.</summary>
    public long Dropped { get; set; }

    /// <summary>Documents given up in this second after their throttle retries ran out.</summary>
    public long GivenUp { get; set; }

    // Latency of the second's successful operations; null when none succeeded (a gap, not 0 ms).
    public double? LatencyP50Ms { get; set; }

    public double? LatencyP95Ms { get; set; }

    public double? LatencyP99Ms { get; set; }

    public double? LatencyMaxMs { get; set; }

    public long InFlight { get; set; }

    public double ClientCpuPercent { get; set; }

    /// <summary>Open loop: requests sent more than 10 ms after their intended start.</summary>
    public long SentLate { get; set; }

    /// <summary>Requests due or taken when issuing stopped, never sent.</summary>
    public long NotStarted { get; set; }

    /// <summary>Requests cut off at the stop.</summary>
    public long Abandoned { get; set; }

    /// <summary>Requests given up after their throttle retries ran out (a batch is one).</summary>
    public long GivenUpRequests { get; set; }

    // The client's health over the second (the engine's ClientHealth, flattened); all null in seconds measured without it.

    /// <summary>Which bounds the second crossed (<see cref="ClientLimitKinds"/> as a number: 0 for a healthy second); null when
    /// the second has no client health.</summary>
    public int? ClientLimits { get; set; }

    public double? HostCpuPercent { get; set; }

    public double? SchedulingLagP50Ms { get; set; }

    public double? SchedulingLagP99Ms { get; set; }

    public double? SchedulingLagMaxMs { get; set; }

    public double? ClockLagMs { get; set; }

    public long? ThreadPoolQueueMax { get; set; }

    public int? ThreadPoolThreads { get; set; }

    public int? ThreadInjections { get; set; }

    public double? GcPauseMs { get; set; }

    public long? AvailableMemoryMb { get; set; }

    /// <summary>The engine's client health of this second, or null when it has none.</summary>
    public ClientHealth? ToClientHealth() => ClientLimits is not { } limits ? null : new ClientHealth
    {
        Limits = (ClientLimitKinds)limits,
        HostCpuPercent = HostCpuPercent,
        SchedulingLagP50Ms = SchedulingLagP50Ms ?? 0,
        SchedulingLagP99Ms = SchedulingLagP99Ms ?? 0,
        SchedulingLagMaxMs = SchedulingLagMaxMs ?? 0,
        ClockLagMs = ClockLagMs ?? 0,
        ThreadPoolQueueMax = ThreadPoolQueueMax ?? 0,
        ThreadPoolThreads = ThreadPoolThreads ?? 0,
        ThreadInjections = ThreadInjections ?? 0,
        GcPauseMs = GcPauseMs ?? 0,
        AvailableMemoryMb = AvailableMemoryMb,
    };

    /// <summary>The saved second as the engine's figure code reads it: the inverse of <see cref="From"/>.</summary>
    public SecondSnapshot ToSnapshot() => new()
    {
        Index = Index,
        Elapsed = TimeSpan.FromSeconds(ElapsedSeconds),
        Duration = TimeSpan.FromSeconds(DurationSeconds),
        Ok = Ok,
        OkRequests = OkRequests,
        Throttled = Throttled,
        Errors = Errors,
        ErrorsByStatus = ErrorsByStatusJson is { } byStatus ? JsonSerializer.Deserialize<Dictionary<int, long>>(byStatus) ?? [] : new Dictionary<int, long>(),
        RequestUnits = RequestUnits,
        Bytes = Bytes,
        Issued = Issued,
        Dropped = Dropped,
        GivenUp = GivenUp,
        LatencyP50Ms = LatencyP50Ms,
        LatencyP95Ms = LatencyP95Ms,
        LatencyP99Ms = LatencyP99Ms,
        LatencyMaxMs = LatencyMaxMs,
        InFlight = InFlight,
        ClientCpuPercent = ClientCpuPercent,
        SentLate = SentLate,
        NotStarted = NotStarted,
        Abandoned = Abandoned,
        GivenUpRequests = GivenUpRequests,
        Health = ToClientHealth(),
    };

    /// <summary>This second's counts and request units, to add to others'.</summary>
    public SecondTotals ToTotals() => new(
        Ok: Ok,
        OkRequests: OkRequests,
        Throttled: Throttled,
        Errors: Errors,
        Issued: Issued,
        Dropped: Dropped,
        GivenUp: GivenUp,
        GivenUpRequests: GivenUpRequests,
        SentLate: SentLate,
        NotStarted: NotStarted,
        Abandoned: Abandoned,
        RequestUnits: RequestUnits);

    /// <summary>When the engine closed this second (wall clock); lets the push latency be measured.</summary>
    public DateTimeOffset ClosedAt { get; set; }

    /// <summary>The engine's second as it is saved and sent to watchers: durations in seconds, errors by status as JSON.</summary>
    public static RunSecondEntity From(long runId, SecondSnapshot second, DateTimeOffset closedAt)
    {
        ArgumentNullException.ThrowIfNull(second);
        return new RunSecondEntity
        {
            RunId = runId,
            Index = second.Index,
            ElapsedSeconds = second.Elapsed.TotalSeconds,
            DurationSeconds = second.Duration.TotalSeconds,
            Ok = second.Ok,
            OkRequests = second.OkRequests,
            Throttled = second.Throttled,
            Errors = second.Errors,
            ErrorsByStatusJson = second.ErrorsByStatus.Count == 0 ? null : JsonSerializer.Serialize(second.ErrorsByStatus),
            RequestUnits = second.RequestUnits,
            Bytes = second.Bytes,
            Issued = second.Issued,
            Dropped = second.Dropped,
            GivenUp = second.GivenUp,
            LatencyP50Ms = second.LatencyP50Ms,
            LatencyP95Ms = second.LatencyP95Ms,
            LatencyP99Ms = second.LatencyP99Ms,
            LatencyMaxMs = second.LatencyMaxMs,
            InFlight = second.InFlight,
            ClientCpuPercent = second.ClientCpuPercent,
            SentLate = second.SentLate,
            NotStarted = second.NotStarted,
            Abandoned = second.Abandoned,
            GivenUpRequests = second.GivenUpRequests,
            ClientLimits = second.Health is { } h ? (int)h.Limits : null,
            HostCpuPercent = second.Health?.HostCpuPercent,
            SchedulingLagP50Ms = second.Health?.SchedulingLagP50Ms,
            SchedulingLagP99Ms = second.Health?.SchedulingLagP99Ms,
            SchedulingLagMaxMs = second.Health?.SchedulingLagMaxMs,
            ClockLagMs = second.Health?.ClockLagMs,
            ThreadPoolQueueMax = second.Health?.ThreadPoolQueueMax,
            ThreadPoolThreads = second.Health?.ThreadPoolThreads,
            ThreadInjections = second.Health?.ThreadInjections,
            GcPauseMs = second.Health?.GcPauseMs,
            AvailableMemoryMb = second.Health?.AvailableMemoryMb,
            ClosedAt = closedAt,
        };
    }
}
