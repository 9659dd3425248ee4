using BenchEngine.Metrics;

namespace BenchWeb.Transfer;

/// <summary>One second of an exported run, with the same figures the dashboard stores.</summary>
/// <remarks>Members are only ever added, each absent from exports of earlier versions (a count then reads 0, the health
/// null), so those still import.</remarks>
public sealed record RunExportSecond
{
    /// <summary>0-based second of the run.</summary>
    public int Index { get; init; }

    /// <summary>Time since the start at the end of this second, in seconds.</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Length of this second: 1, except for the last, usually partial, one.</summary>
    public double DurationSeconds { get; init; }

    public long Ok { get; init; }

    public long OkRequests { get; init; }

    public long Throttled { get; init; }

    public long Errors { get; init; }

    /// <summary>Errors by status code, when there were any.</summary>
    public IReadOnlyDictionary<int, long>? ErrorsByStatus { get; init; }

    public double RequestUnits { get; init; }

    public long Bytes { get; init; }

    /// <summary>Requests sent in this second (absent from exports of earlier versions: 0).</summary>
    public long Issued { get; init; }

    /// <summary>Open loop: requests due in this second but not sent.</summary>
    public long Dropped { get; init; }

    /// <summary>Documents given up in this second after their throttle retries ran out.</summary>
    public long GivenUp { get; init; }

    /// <summary>Latency of the second's successful operations (failed and throttled attempts excluded); null when none succeeded.</summary>
    public double? LatencyP50Ms { get; init; }

    public double? LatencyP95Ms { get; init; }

    public double? LatencyP99Ms { get; init; }

    public double? LatencyMaxMs { get; init; }

    public long InFlight { get; init; }

    public double ClientCpuPercent { get; init; }

    /// <summary>Open loop: requests sent more than 10 ms after their intended start (<see cref="SecondSnapshot.SentLate"/>).</summary>
    public long SentLate { get; init; }

    /// <summary>Requests due or taken when issuing stopped, never sent (<see cref="SecondSnapshot.NotStarted"/>).</summary>
    public long NotStarted { get; init; }

    /// <summary>Requests cut off at the stop (<see cref="SecondSnapshot.Abandoned"/>).</summary>
    public long Abandoned { get; init; }

    /// <summary>Requests given up after their throttle retries ran out, a batch being one (<see cref="SecondSnapshot.GivenUpRequests"/>).</summary>
    public long GivenUpRequests { get; init; }

    /// <summary>The client's health over the second and which bounds it crossed; null in seconds measured without it.</summary>
    public ClientHealth? Health { get; init; }

    /// <summary>Whether the second's figures were the client's, not the service's: the verdict the run's summary used. Written
    /// for readers of the file; an import recomputes it from <see cref="Health"/>.</summary>
    public bool ClientLimited => ToSnapshot().IsClientLimited;

    /// <summary>Why the second was client-limited, in words ("the client was starved: scheduling lag p99 180 ms, host CPU 100 %,
    /// this process 22 %"); empty for a healthy second. Written for readers of the file, recomputed on import.</summary>
    public string ClientLimitedReason => !ClientLimited ? ""
        : ClientLimits.Describe(Health?.Limits ?? ClientLimitKinds.ProcessCpu, ClientCpuPercent, Health ?? new ClientHealth());

    public DateTimeOffset ClosedAt { get; init; }

    /// <summary>The engine's second as exported, closed at <paramref name="closedAt"/>.</summary>
    public static RunExportSecond From(SecondSnapshot second, DateTimeOffset closedAt)
    {
        ArgumentNullException.ThrowIfNull(second);
        return new()
        {
            Index = second.Index,
            ElapsedSeconds = second.Elapsed.TotalSeconds,
            DurationSeconds = second.Duration.TotalSeconds,
            Ok = second.Ok,
            OkRequests = second.OkRequests,
            Throttled = second.Throttled,
            Errors = second.Errors,
            ErrorsByStatus = second.ErrorsByStatus.Count == 0 ? null : second.ErrorsByStatus,
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
            Health = second.Health,
            ClosedAt = closedAt,
        };
    }

    /// <summary>The exported second as the engine's figure code reads it: the engine's verdicts (client-limited or not) are
    /// its own, never a copy. A second without health is judged by this process's CPU alone, as the summary judged it.</summary>
    public SecondSnapshot ToSnapshot() => new()
    {
        Index = Index,
        Elapsed = TimeSpan.FromSeconds(ElapsedSeconds),
        Duration = TimeSpan.FromSeconds(DurationSeconds),
        Ok = Ok,
        OkRequests = OkRequests,
        Throttled = Throttled,
        Errors = Errors,
        ErrorsByStatus = ErrorsByStatus ?? new Dictionary<int, long>(),
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
        Health = Health,
    };
}
