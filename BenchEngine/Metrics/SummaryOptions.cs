namespace BenchEngine.Metrics;

/// <summary>What a summary needs to know besides the seconds and the latencies: how the run was loaded and what its target
/// reports and costs.</summary>
public sealed record SummaryOptions
{
    /// <summary>One operation is a batch of entities: the latency is per batch.</summary>
    public bool LatencyIsPerBatch { get; init; }

    /// <summary>The target's provisioned RU/s (for autoscale, the maximum); null when it could not be read.</summary>
    public double? ProvisionedRequestUnitsPerSecond { get; init; }

    /// <summary>The provisioned throughput is autoscale.</summary>
    public bool Autoscale { get; init; }

    /// <summary>Whether the target reports request units at all (Table Storage and the no-op target do not).</summary>
    public bool RequestUnitsReported { get; init; } = true;

    /// <summary>Open loop: the plan's rate, requests/s.</summary>
    public double? OfferedRequestsPerSecond { get; init; }

    /// <summary>A staged run: each stage's whole seconds, in order; empty for a constant load (no <see cref="RunSummary.Stages"/>).</summary>
    public IReadOnlyList<int> StageSeconds { get; init; } = [];

    /// <summary>The bounds the worst client second is measured against (seconds carry their own verdict).</summary>
    public ClientLimits ClientLimits { get; init; } = ClientLimits.Default;

    /// <summary>US dollars per 100 RU/s per hour of manual provisioned throughput.</summary>
    public double DollarsPer100RuHour { get; init; } = ThroughputCost.DefaultDollarsPer100RuHour;
}
