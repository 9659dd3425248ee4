namespace BenchWeb.Compare;

/// <summary>One run in a results table: what was run, and the figures the seeds' published tables report.
/// Numbers are as measured (null when the run has no summary, or the setting does not apply to its target).</summary>
public sealed record ResultsRow
{
    public long RunId { get; init; }

    public required string Profile { get; init; }

    /// <summary>The kind of target as people say it, e.g. "Cosmos DB (SQL API)" (<see cref="BenchEngine.Targets.TargetNames.DisplayName"/>).</summary>
    public required string Target { get; init; }

    /// <summary>Direct or Gateway (Cosmos DB for NoSQL only).</summary>
    public string? ConnectionMode { get; init; }

    /// <summary>Bulk mode (Cosmos DB for NoSQL only).</summary>
    public bool? Bulk { get; init; }

    public int? Concurrency { get; init; }

    /// <summary>"closed loop", or "open loop, 10/s" with its rate.</summary>
    public string? LoadModel { get; init; }

    /// <summary>How the load was offered, in a phrase: "100 workers, closed loop", "waves of 10, batches of 100".</summary>
    public string? Load { get; init; }

    public int? BatchSize { get; init; }

    /// <summary>Provisioned RU/s.</summary>
    public double? RequestUnits { get; init; }

    /// <summary>Where the run came from, as <c>commit=1a2b; branch=main</c>; empty when nothing was said.</summary>
    public string Metadata { get; init; } = "";

    /// <summary>The run was cancelled, interrupted or failed: its figures cover the seconds it kept.</summary>
    public bool IsPartial { get; init; }

    /// <summary>False for a target without request units: its RU figures are "n/a" (empty in CSV), never 0.</summary>
    public bool RequestUnitsReported { get; init; } = true;

    // Latency over successful operations; failed and throttled attempts excluded.
    public double? AverageLatencyMs { get; init; }

    public double? P50LatencyMs { get; init; }

    public double? P75LatencyMs { get; init; }

    public double? P90LatencyMs { get; init; }

    public double? P95LatencyMs { get; init; }

    public double? P98LatencyMs { get; init; }

    public double? P99LatencyMs { get; init; }

    public double? P999LatencyMs { get; init; }

    public double? MaxLatencyMs { get; init; }

    public double? AverageThroughput { get; init; }

    public double? P99PerSecondThroughput { get; init; }

    /// <summary>Mean of the best 10 % of the full seconds' counts.</summary>
    public double? Top10PercentMeanThroughput { get; init; }

    public double? RequestUnitsPerInsert { get; init; }

    public double? ThrottledPercent { get; init; }

    public double? EstimatedCostPerMonth { get; init; }

    /// <summary>Seconds whose figures were the client's, not the service's; null when the run's seconds had no client health.</summary>
    public int? ClientLimitedSeconds { get; init; }

    /// <summary>Of those, the full seconds the per-second figures left out (none when no full second was the service's).</summary>
    public int PerSecondLeftOut { get; init; }

    /// <summary>The run's worst second for the client, in words (<see cref="ClientSecondText"/>); null when not measured.</summary>
    public string? WorstClientSecond { get; init; }
}
