using System.ComponentModel;
using System.Text.Json.Serialization;

namespace BenchEngine.Targets;

/// <summary>Where documents are written and how.</summary>
public sealed record TargetOptions
{
    [Description("The service to write to. The simulator is a model of Cosmos DB that needs no account.")]
    public TargetKind Kind { get; init; } = TargetKind.Simulated;

    /// <summary>Create fails on an existing id; upsert replaces (Tables: insert or insert-or-replace).</summary>
    public WriteOperation Operation { get; init; } = WriteOperation.Create;

    public CosmosOptions Cosmos { get; init; } = new();

    public TableOptions Tables { get; init; } = new();

    public SimulatorOptions Simulator { get; init; } = new();
}

[JsonConverter(typeof(JsonStringEnumConverter<TargetKind>))]
public enum TargetKind
{
    /// <summary>In-process model of Cosmos DB (RU budget per partition, 429s, latency). Not a real service.</summary>
    Simulated,

    /// <summary>Azure Cosmos DB for NoSQL (SQL API), through Microsoft.Azure.Cosmos.</summary>
    CosmosSql,

    /// <summary>Azure Table Storage; throttles with 503/500.</summary>
    TableStorage,

    /// <summary>Azure Cosmos DB for Table; throttles with 429.</summary>
    CosmosTable,

    /// <summary>Writes nowhere: measures what the client alone can do.</summary>
    NoOp,
}

[JsonConverter(typeof(JsonStringEnumConverter<WriteOperation>))]
public enum WriteOperation
{
    Create,
    Upsert,
}
