namespace BenchEngine.Targets;

/// <summary>Settings for Azure Blob Storage: the container each document is uploaded to as one block blob.</summary>
public sealed record BlobOptions
{
    /// <summary>Name of the secret that holds the connection string. The string itself is never part of a plan.</summary>
    public string ConnectionStringSecret { get; init; } = "BLOBS_CONNECTION_STRING";

    public string ContainerName { get; init; } = "benchweb";

    public bool CreateIfMissing { get; init; } = true;
}
