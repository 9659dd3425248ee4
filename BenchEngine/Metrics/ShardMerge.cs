namespace BenchEngine.Metrics;

/// <summary>
/// One run measured on several machines at once (its shards, each with its share of the load), made into one: the
/// run's second <c>i</c> is the sum of every shard's second <c>i</c> (the shards share a start instant, so their
/// seconds are the same wall-clock seconds), and every latency figure comes from the shards' histograms merged, so a
/// percentile is over all the operations, never an average of percentiles.
/// </summary>
public static class ShardMerge
{
    /// <summary>The run's second from the shards' seconds with that index. Counts, request units and bytes add up; the
    /// length is the longest; the client CPU is the busiest client's (a client-bound agent is what it signals).</summary>
    /// <param name="index">The run's second.</param>
    /// <param name="seconds">Each shard's second with that index (a shard that measured nothing then is left out).</param>
    public static SecondSnapshot CombineSecond(int index, IReadOnlyCollection<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentOutOfRangeException.ThrowIfZero(seconds.Count);
        var latency = Merge(seconds.Select(s => s.LatencyHistogram));
        var errors = new Dictionary<int, long>();
        foreach (var (status, count) in seconds.SelectMany(s => s.ErrorsByStatus))
        {
            errors[status] = errors.GetValueOrDefault(status) + count;
        }

        var totals = SecondTotals.Sum(seconds);
        var combined = new SecondSnapshot
        {
            Index = index,
            Elapsed = TimeSpan.FromSeconds(index) + seconds.Max(s => s.Duration),
            Duration = seconds.Max(s => s.Duration),
            Ok = totals.Ok,
            OkRequests = totals.OkRequests,
            Throttled = totals.Throttled,
            Errors = totals.Errors,
            ErrorsByStatus = errors,
            Issued = totals.Issued,
            Dropped = totals.Dropped,
            GivenUp = totals.GivenUp,
            GivenUpRequests = totals.GivenUpRequests,
            SentLate = totals.SentLate,
            NotStarted = totals.NotStarted,
            Abandoned = totals.Abandoned,
            RequestUnits = totals.RequestUnits,
            Bytes = seconds.Sum(s => s.Bytes),
            InFlight = seconds.Sum(s => s.InFlight),
            ClientCpuPercent = seconds.Max(s => s.ClientCpuPercent),
            Health = CombineHealth(seconds),
        };
        return latency.Count == 0 ? combined : combined with
        {
            LatencyP50Ms = latency.MillisecondsAtPercentile(50),
            LatencyP95Ms = latency.MillisecondsAtPercentile(95),
            LatencyP99Ms = latency.MillisecondsAtPercentile(99),
            LatencyMaxMs = latency.MaxMicroseconds / 1000.0,
        };
    }

    /// <summary>The agents' health as one: each figure the worst agent's, and every bound any agent crossed (a run second is
    /// client-limited when one of its clients was). Null when no agent measured it.</summary>
    private static ClientHealth? CombineHealth(IReadOnlyCollection<SecondSnapshot> seconds)
    {
        var health = seconds.Select(s => s.Health).OfType<ClientHealth>().ToList();
        return health.Count == 0 ? null : new ClientHealth
        {
            HostCpuPercent = health.Max(h => h.HostCpuPercent),
            SchedulingLagP50Ms = health.Max(h => h.SchedulingLagP50Ms),
            SchedulingLagP99Ms = health.Max(h => h.SchedulingLagP99Ms),
            SchedulingLagMaxMs = health.Max(h => h.SchedulingLagMaxMs),
            ClockLagMs = health.Max(h => h.ClockLagMs),
            ThreadPoolQueueMax = health.Max(h => h.ThreadPoolQueueMax),
            ThreadPoolThreads = health.Max(h => h.ThreadPoolThreads),
            ThreadInjections = health.Max(h => h.ThreadInjections),
            GcPauseMs = health.Max(h => h.GcPauseMs),
            AvailableMemoryMb = health.Min(h => h.AvailableMemoryMb),
            Limits = health.Aggregate(ClientLimitKinds.None, (all, h) => all | h.Limits),
        };
    }

    /// <summary>Every value of the encoded distributions together (none: an empty distribution).</summary>
    /// <exception cref="InvalidDataException">One is not an encoded distribution.</exception>
    public static LatencyDistribution Merge(IEnumerable<byte[]?> encoded)
    {
        ArgumentNullException.ThrowIfNull(encoded);
        var merged = new LatencyDistribution();
        foreach (var bytes in encoded)
        {
            if (bytes is { Length: > 0 })
            {
                merged.Add(LatencyDistribution.Decode(bytes));
            }
        }

        return merged;
    }
}
