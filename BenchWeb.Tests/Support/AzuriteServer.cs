using Azure.Data.Tables;

namespace BenchWeb.Tests.Support;

/// <summary>One of Azurite's services (Microsoft's Storage emulator), in memory, on a port of its own.</summary>
/// <param name="service">The service as Azurite names it: <c>table</c>, <c>blob</c> or <c>queue</c>.</param>
public abstract class AzuriteService(string service) : LocalServer
{
    /// <summary>Azurite's well-known development account key (public, from Microsoft's documentation).</summary>
    internal const string DevelopmentKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    protected override string Name => "azurite-" + service;

    /// <summary>A connection string that names this service's endpoint only (<c>TableEndpoint</c>, <c>BlobEndpoint</c>, …).</summary>
    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DevelopmentKey};{char.ToUpperInvariant(service[0])}{service[1..]}Endpoint=http://127.0.0.1:{Port}/devstoreaccount1;";

    /// <summary>The connection string with the port of <paramref name="proxyPort"/> instead: the service through a proxy.</summary>
    public string ConnectionStringThrough(int proxyPort) =>
        ConnectionString.Replace($":{Port}/", $":{proxyPort}/", StringComparison.Ordinal);

    protected override IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
    [
        Path.Combine(serversDirectory, "node_modules", "azurite", "dist", "src", service, "main.js"),
        $"--{service}Host", "127.0.0.1", $"--{service}Port", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck", "--loose", "--silent",
    ];
}

/// <summary>Azurite's table service (Microsoft's Table Storage emulator), in memory.</summary>
public sealed class AzuriteServer() : AzuriteService("table")
{
    /// <summary>The entities in a table, counted with the SDK's own client: independent of the target under test.</summary>
    public async Task<long> CountEntitiesAsync(string tableName)
    {
        var table = new TableClient(ConnectionString, tableName);
        long count = 0;
        await foreach (var page in table.QueryAsync<TableEntity>(filter: (string?)null, maxPerPage: 1000, select: ["RowKey"]).AsPages())
        {
            count += page.Values.Count;
        }

        return count;
    }
}
