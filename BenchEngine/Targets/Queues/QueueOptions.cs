namespace BenchEngine.Targets;

/// <summary>Settings for Azure Queue Storage: the queue each document is sent to as one message.</summary>
public sealed record QueueOptions
{
    /// <summary>Name of the secret that holds the connection string. The string itself is never part of a plan.</summary>
    public string ConnectionStringSecret { get; init; } = "QUEUES_CONNECTION_STRING";

    public string QueueName { get; init; } = "benchweb";

    public bool CreateIfMissing { get; init; } = true;
}
