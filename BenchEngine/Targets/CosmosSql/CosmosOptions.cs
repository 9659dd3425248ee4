using System.Text.Json.Serialization;

namespace BenchEngine.Targets;

/// <summary>Client and container settings for Azure Cosmos DB for NoSQL.</summary>
public sealed record CosmosOptions
{
    /// <summary>Account endpoint, e.g. <c>https://myaccount.documents.azure.com:443/</c>.</summary>
    public string? Endpoint { get; init; }

    /// <summary>Name of the secret that holds the account key (an environment variable for headless runs;
    /// the dashboard's secret store otherwise). The key itself is never part of a plan.</summary>
    public string KeySecret { get; init; } = "COSMOS_KEY";

    public string Database { get; init; } = "benchweb";

    public string Container { get; init; } = "inserts";

    /// <summary>Partition key path of the container; the document property it names gets the partition key value.</summary>
    public string PartitionKeyPath { get; init; } = "/PartitionKey";

    /// <summary>Direct (TCP) is faster; Gateway (HTTPS) passes firewalls and is what App Service sandboxes allow best.</summary>
    public CosmosConnectionMode ConnectionMode { get; init; } = CosmosConnectionMode.Direct;

    /// <summary>Only talk to the endpoint given (no region discovery). Needed for emulators and local servers.</summary>
    public bool LimitToEndpoint { get; init; }

    /// <summary>Accept any TLS certificate. Only for a local emulator with a self-signed certificate.</summary>
    public bool AcceptAnyServerCertificate { get; init; }

    /// <summary>Let the SDK group concurrent point writes into batches (<c>AllowBulkExecution</c>).</summary>
    public bool Bulk { get; init; }

    /// <summary>Null: the account's default. Only weaker levels than the account's are accepted.</summary>
    public CosmosConsistency? ConsistencyLevel { get; init; }

    /// <summary>Gateway mode: most concurrent HTTP connections (the SDK's default is 50).</summary>
    public int GatewayMaxConnections { get; init; } = 50;

    /// <summary>Return the written document in each response. Off saves bandwidth and client CPU.</summary>
    public bool ContentResponseOnWrite { get; init; }

    /// <summary>Create the database and container when missing, with the settings below.</summary>
    public bool CreateIfMissing { get; init; } = true;

    public IndexingMode Indexing { get; init; } = IndexingMode.Consistent;

    /// <summary>With <see cref="IndexingMode.ExcludedPaths"/>: paths not to index, e.g. <c>/SomeText/?</c>.</summary>
    public IReadOnlyList<string> ExcludedPaths { get; init; } = [];

    public ThroughputMode Throughput { get; init; } = ThroughputMode.Manual;

    /// <summary>RU/s of a new container (manual), or its maximum (autoscale). Null: none set (serverless or shared).</summary>
    public int? RequestUnits { get; init; } = 10_000;
}

[JsonConverter(typeof(JsonStringEnumConverter<CosmosConnectionMode>))]
public enum CosmosConnectionMode
{
    Direct,
    Gateway,
}

[JsonConverter(typeof(JsonStringEnumConverter<CosmosConsistency>))]
public enum CosmosConsistency
{
    Strong,
    BoundedStaleness,
    Session,
    ConsistentPrefix,
    Eventual,
}

/// <summary>How a new container indexes documents. ("Lazy" no longer exists for new containers: use None or excluded paths.)</summary>
[JsonConverter(typeof(JsonStringEnumConverter<IndexingMode>))]
public enum IndexingMode
{
    /// <summary>Every path indexed at write time (the default; costs RU per indexed term).</summary>
    Consistent,

    /// <summary>No index: cheapest writes, point reads only.</summary>
    None,

    /// <summary>Consistent, but the listed paths are left out.</summary>
    ExcludedPaths,
}

[JsonConverter(typeof(JsonStringEnumConverter<ThroughputMode>))]
public enum ThroughputMode
{
    Manual,
    Autoscale,
}
