using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>Tests send traffic to loopback only: a run against the local Cosmos API server opens no connection
/// anywhere else (the Cosmos SDK would probe the Azure VM metadata address unless told not to).</summary>
[Collection(CosmosApiCollection.Name)]
public sealed class LoopbackOnlyTests(CosmosApiServer server)
{
    [Fact]
    public async Task CosmosRun_AgainstTheLocalServer_OpensNoConnectionToANonLoopbackAddress()
    {
        using var connections = new OutboundConnections();
        var plan = new RunPlan
        {
            Name = "loopback only",
            Target = new TargetOptions
            {
                Kind = TargetKind.CosmosSql,
                Cosmos = new CosmosOptions
                {
                    Endpoint = server.Endpoint,
                    ConnectionMode = CosmosConnectionMode.Gateway,
                    LimitToEndpoint = true,
                    Container = "loopback" + Guid.NewGuid().ToString("N")[..8],
                    RequestUnits = null,
                },
            },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { TotalDocuments = 200 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => CosmosApiServer.AnyKey));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Empty(connections.Unreadable);
        Assert.Contains(connections.Endpoints, e => e.Port == new Uri(server.Endpoint).Port);
        Assert.All(connections.Endpoints, e => Assert.True(IPAddress.IsLoopback(e.Address), $"connected to {e}"));
    }

    [Theory]
    [InlineData("InterNetwork:16:{0,80,169,254,169,254,0,0,0,0,0,0,0,0}", "169.254.169.254:80")]
    [InlineData("InterNetworkV6:28:{31,144,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0}", "[::1]:8080")]
    public void OutboundConnections_ReadsTheRuntimesSocketAddressForm(string text, string expected)
    {
        Assert.Equal(expected, OutboundConnections.TryParse(text)?.ToString());
    }
}
