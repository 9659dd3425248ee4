using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>Tests send traffic to loopback only (the Cosmos SDK would probe the Azure VM metadata address, once per
/// process, unless told not to). Run alone, after the tests that run in parallel: every connection the process
/// made until then, and every connection during a Cosmos run here, went to a loopback address.</summary>
[Collection(ConnectionWatchCollection.Name)]
[IntegrationTest]
public sealed class LoopbackOnlyTests(CosmosApiServer server)
{
    [SkippableFact]
    public void EveryConnectionOfThisTestProcess_WentToALoopbackAddress()
    {
        Skip.If(CosmosRealAccountTests.Configured, "A real Cosmos DB account is configured (COSMOS_ENDPOINT): its tests connect to it on purpose.");

        AssertLoopbackOnly(OutboundConnections.SinceStart);
    }

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
        Assert.Contains(connections.Endpoints, e => e.Port == new Uri(server.Endpoint).Port);
        AssertLoopbackOnly(connections);
    }

    [Theory]
    [InlineData("InterNetwork:16:{0,80,169,254,169,254,0,0,0,0,0,0,0,0}", "169.254.169.254:80")]
    [InlineData("InterNetworkV6:28:{31,144,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0}", "[::1]:8080")]
    public void OutboundConnections_ReadsTheRuntimesSocketAddressForm(string text, string expected)
    {
        Assert.Equal(expected, OutboundConnections.TryParse(text)?.ToString());
    }

    private static void AssertLoopbackOnly(OutboundConnections connections)
    {
        Assert.Empty(connections.Unreadable);
        Assert.NotEmpty(connections.Endpoints);
        Assert.All(connections.Endpoints, e => Assert.True(IPAddress.IsLoopback(e.Address), $"connected to {e}"));
    }
}
