using Azure.Data.Tables;

namespace BenchWeb.Tests.Support;

/// <summary>Azurite's table service (Microsoft's Table Storage emulator), in memory.</summary>
public sealed class AzuriteServer : LocalServer
{
    /// <summary>Azurite's well-known development account key (public, from Microsoft's documentation).</summary>
    internal const string DevelopmentKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    protected override string Name => "azurite";

    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DevelopmentKey};TableEndpoint=http://127.0.0.1:{Port}/devstoreaccount1;";

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

    protected override IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
    [
        Path.Combine(serversDirectory, "node_modules", "azurite", "dist", "src", "table", "main.js"),
        "--tableHost", "127.0.0.1", "--tablePort", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck", "--loose", "--silent",
    ];
}
