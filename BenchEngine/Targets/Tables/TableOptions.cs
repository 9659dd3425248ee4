namespace BenchEngine.Targets;

/// <summary>Settings for Azure Table Storage and the Cosmos DB Table API.</summary>
public sealed record TableOptions
{
    /// <summary>Name of the secret that holds the connection string. The string itself is never part of a plan.</summary>
    public string ConnectionStringSecret { get; init; } = "TABLES_CONNECTION_STRING";

    public string TableName { get; init; } = "benchweb";

    public bool CreateIfMissing { get; init; } = true;
}
