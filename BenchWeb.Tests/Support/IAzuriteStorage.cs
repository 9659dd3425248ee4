using BenchEngine.Targets;

namespace BenchWeb.Tests.Support;

/// <summary>An Azurite service a storage target writes to one item per request (blobs, queues), as the tests that hold
/// for both see it. What landed is counted with the SDK's own client, never by the target under test.</summary>
public interface IAzuriteStorage
{
    /// <summary>The target's default secret name for its connection string.</summary>
    string Secret { get; }

    /// <summary>The resource in words, as the target names it: "Container", "Queue".</summary>
    string Resource { get; }

    int Port { get; }

    string ConnectionString { get; }

    string ConnectionStringThrough(int proxyPort);

    /// <summary>Target options writing to the container or queue <paramref name="name"/> of this service.</summary>
    TargetOptions Options(string name, bool createIfMissing = true);

    Task CreateAsync(string name);

    Task<bool> ExistsAsync(string name);

    /// <summary>The items in the container or queue: blobs listed, messages received.</summary>
    Task<int> CountItemsAsync(string name);
}
