namespace BenchWeb.Secrets;

/// <summary>Where a Tables connection string points, read without keeping any of its keys: what the endpoint
/// allow-list and the audit log need, taken when the string is stored (afterwards it is only ever decrypted by a run).</summary>
public static class TableConnectionString
{
    /// <summary>Azurite's table endpoint, which <c>UseDevelopmentStorage=true</c> stands for.</summary>
    public static readonly Uri DevelopmentStorage = new("http://127.0.0.1:10002/");

    /// <summary>The table endpoint as scheme, host and port (no path, no credentials); null when the text is not a
    /// connection string that names one.</summary>
    public static Uri? EndpointOf(string? connectionString)
    {
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
        if (settings.TryGetValue("TableEndpoint", out var explicitEndpoint))
        {
            Uri.TryCreate(explicitEndpoint, UriKind.Absolute, out endpoint);
        }
        else if (settings.TryGetValue("UseDevelopmentStorage", out var development) && bool.TryParse(development, out var isDevelopment) && isDevelopment)
        {
            endpoint = DevelopmentStorage;
        }
        else if (settings.TryGetValue("AccountName", out var account) && account.Length > 0 && account.All(char.IsAsciiLetterOrDigit))
        {
            var protocol = settings.GetValueOrDefault("DefaultEndpointsProtocol", "https");
            var suffix = settings.GetValueOrDefault("EndpointSuffix", "core.windows.net");
            Uri.TryCreate($"{protocol}://{account}.table.{suffix}", UriKind.Absolute, out endpoint);
        }

        return endpoint is { Scheme: "http" or "https" } ? new Uri($"{endpoint.Scheme}://{endpoint.Authority}/") : null;
    }
}
