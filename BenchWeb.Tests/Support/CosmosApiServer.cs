namespace BenchWeb.Tests.Support;

/// <summary>@vercel/cosmosdb-server: the Cosmos DB SQL API over plain HTTP with keep-alive (Gateway mode only).</summary>
public sealed class CosmosApiServer : LocalServer
{
    protected override string Name => "cosmosdb-server";

    public string Endpoint => $"http://127.0.0.1:{Port}/";

    /// <summary>The server accepts any key; the SDK wants a base64 one.</summary>
    public static string AnyKey => Convert.ToBase64String(new byte[64]);

    protected override IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
        [Path.Combine(serversDirectory, "cosmos-server.js"), port.ToString(System.Globalization.CultureInfo.InvariantCulture)];
}
