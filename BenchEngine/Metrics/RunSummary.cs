namespace BenchEngine.Metrics;

/// <summary>The figures of a whole run, as DESIGN.md defines them.</summary>
public sealed record RunSummary
{
    public TimeSpan Elapsed { get; init; }

    /// <summary>Documents (entities) that landed.</summary>
    public long TotalOk { get; init; }

    public long TotalOkRequests { get; init; }

    /// <summary>Throttled responses, retried ones included.</summary>
    public long TotalThrottled { get; init; }

    public long TotalErrors { get; init; }

    public IReadOnlyDictionary<int, long> ErrorsByStatus { get; init; } = new Dictionary<int, long>();

    /// <summary>Ok ÷ elapsed.</summary>
    public double AverageThroughput { get; init; }

    /// <summary>Mean of the per-second ok counts over the run's full seconds.</summary>
    public double MeanPerSecondThroughput { get; init; }

    /// <summary>99th percentile (nearest rank) of the per-second ok counts over the run's full seconds.</summary>
    public double P99PerSecondThroughput { get; init; }

    /// <summary>Latency over all successful operations (for batch targets: per batch).</summary>
    public LatencySummary Latency { get; init; } = new();

    /// <summary>True when one operation is a batch of entities, so <see cref="Latency"/> is per batch.</summary>
    public bool LatencyIsPerBatch { get; init; }

    public double TotalRequestUnits { get; init; }

    public double RequestUnitsPerSecond { get; init; }

    /// <summary>RU ÷ documents landed.</summary>
    public double RequestUnitsPerInsert { get; init; }

    /// <summary>Throttled responses ÷ all responses.</summary>
    public double ThrottledFraction { get; init; }

    /// <summary>Provisioned RU/s the cost is based on, when known.</summary>
    public double? ProvisionedRequestUnitsPerSecond { get; init; }

    /// <summary>Cost of the provisioned throughput for this run's duration, in US dollars.</summary>
    public double? EstimatedCostOfRun { get; init; }

    /// <summary>Cost of keeping the provisioned throughput for a month (730 hours), in US dollars.</summary>
    public double? EstimatedCostPerMonth { get; init; }

    /// <summary>Seconds judged steady (warm-up and cool-down excluded) and their throughput.</summary>
    public SteadyStateWindow SteadyState { get; init; } = new();

    /// <summary>Highest per-second client CPU %; ≥ 85 % flags the run as client-bound.</summary>
    public double MaxClientCpuPercent { get; init; }

    public bool ClientBound { get; init; }
}

public sealed record LatencySummary
{
    public long Count { get; init; }

    public double MeanMs { get; init; }

    public double P50Ms { get; init; }

    public double P95Ms { get; init; }

    public double P96Ms { get; init; }

    public double P99Ms { get; init; }

    public double P999Ms { get; init; }

    public double MaxMs { get; init; }
}

/// <summary>The steady part of a run: from the first to the last second whose throughput reached
/// half the median of the full seconds; seconds before are warm-up, after are cool-down.</summary>
public sealed record SteadyStateWindow
{
    /// <summary>Index of the first steady second (inclusive).</summary>
    public int FirstSecond { get; init; }

    /// <summary>Index of the last steady second (inclusive); −1 when the run had no full second.</summary>
    public int LastSecond { get; init; } = -1;

    public int Seconds => LastSecond < FirstSecond ? 0 : LastSecond - FirstSecond + 1;

    public double MeanThroughput { get; init; }

    public double RequestUnitsPerSecond { get; init; }

    public double ThrottledFraction { get; init; }
}
