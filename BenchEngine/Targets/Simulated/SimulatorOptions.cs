namespace BenchEngine.Targets;

/// <summary>The simulated Cosmos DB: a model built from the service's documented behaviour, not a measurement.</summary>
public sealed record SimulatorOptions
{
    /// <summary>Provisioned throughput of the simulated container.</summary>
    public int ProvisionedRequestUnits { get; init; } = 10_000;

    /// <summary>Physical partitions. Null: the fewest that hold the RU/s at 10,000 RU/s each.</summary>
    public int? PhysicalPartitions { get; init; }

    /// <summary>Consistent indexing costs ≈0.2 RU per indexed property; None costs nothing extra.</summary>
    public IndexingMode Indexing { get; init; } = IndexingMode.Consistent;

    /// <summary>Median latency of a successful write, in milliseconds (lognormal spread around it).</summary>
    public double MedianLatencyMs { get; init; } = 5;

    /// <summary>Seed of the latency model, so simulated runs repeat.</summary>
    public int Seed { get; init; } = 7;

    /// <summary>A run spread over agents: how many models share the account. Each one's partitions have this share of
    /// their budget, so together they model one account of <see cref="ProvisionedRequestUnits"/>, not one per agent.</summary>
    /// <remarks>Set in memory for a shard's plan only; a stored plan never holds it.</remarks>
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public int? Shards { get; init; }
}
