namespace BenchEngine.Targets;

/// <summary>Where an Azure Storage connection string points for one service (tables, blobs or queues), read without
/// keeping any of its keys: what the endpoint allow-list and the audit log need, taken when the string is stored
/// (afterwards it is only ever decrypted by a run).</summary>
public static class StorageConnectionString
{
    /// <summary>Table Storage (<c>TableEndpoint</c>, <c>*.table.*</c>, Azurite's port 10002).</summary>
    public static StorageService Tables { get; } = new("Table", "table", 10002);

    /// <summary>Blob Storage (<c>BlobEndpoint</c>, <c>*.blob.*</c>, Azurite's port 10000).</summary>
    public static StorageService Blobs { get; } = new("Blob", "blob", 10000);

    /// <summary>Queue Storage (<c>QueueEndpoint</c>, <c>*.queue.*</c>, Azurite's port 10001).</summary>
    public static StorageService Queues { get; } = new("Queue", "queue", 10001);

    /// <summary>The service's endpoint as scheme, host and port (no path, no credentials); null when the text is not a
    /// connection string that names one.</summary>
    public static Uri? EndpointOf(string? connectionString, StorageService service)
    {
        ArgumentNullException.ThrowIfNull(service);
        if (string.IsNullOrWhiteSpace(connectionString))
        {
            return null;
        }

        var settings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var part in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = part.IndexOf('=', StringComparison.Ordinal);
            if (equals > 0)
            {
                settings[part[..equals].Trim()] = part[(equals + 1)..].Trim();
            }
        }

        Uri? endpoint = null;
        if (settings.TryGetValue(service.Name + "Endpoint", out var explicitEndpoint))
        {
            Uri.TryCreate(explicitEndpoint, UriKind.Absolute, out endpoint);
        }
        else if (settings.TryGetValue("UseDevelopmentStorage", out var development) && bool.TryParse(development, out var isDevelopment) && isDevelopment)
        {
            endpoint = service.DevelopmentStorage;
        }
        else if (settings.TryGetValue("AccountName", out var account) && account.Length > 0 && account.All(char.IsAsciiLetterOrDigit))
        {
            var protocol = settings.GetValueOrDefault("DefaultEndpointsProtocol", "https");
            var suffix = settings.GetValueOrDefault("EndpointSuffix", "core.windows.net");
            Uri.TryCreate($"{protocol}://{account}.{service.HostLabel}.{suffix}", UriKind.Absolute, out endpoint);
        }

        return endpoint is { Scheme: "http" or "https" } ? new Uri($"{endpoint.Scheme}://{endpoint.Authority}/") : null;
    }
}

/// <summary>One Azure Storage service as its connection strings name it.</summary>
/// <param name="Name">The prefix of its endpoint setting (<c>Table</c> in <c>TableEndpoint</c>).</param>
/// <param name="HostLabel">Its label in an account's host name (<c>table</c> in <c>acct.table.core.windows.net</c>).</param>
/// <param name="DevelopmentPort">Azurite's port for it, which <c>UseDevelopmentStorage=true</c> stands for.</param>
public sealed record StorageService(string Name, string HostLabel, int DevelopmentPort)
{
    /// <summary>Azurite's endpoint for this service.</summary>
    public Uri DevelopmentStorage => new($"http://127.0.0.1:{DevelopmentPort}/");
}
