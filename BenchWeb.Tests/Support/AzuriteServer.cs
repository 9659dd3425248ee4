namespace BenchWeb.Tests.Support;

/// <summary>Azurite's table service (Microsoft's Table Storage emulator), in memory.</summary>
public sealed class AzuriteServer : LocalServer
{
    /// <summary>Azurite's well-known development account key (public, from Microsoft's documentation).</summary>
    private const string DevelopmentKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    protected override string Name => "azurite";

    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DevelopmentKey};TableEndpoint=http://127.0.0.1:{Port}/devstoreaccount1;";

    protected override IEnumerable<string> NodeArguments(string serversDirectory, int port) =>
    [
        Path.Combine(serversDirectory, "node_modules", "azurite", "dist", "src", "table", "main.js"),
        "--tableHost", "127.0.0.1", "--tablePort", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck", "--loose", "--silent",
    ];
}
