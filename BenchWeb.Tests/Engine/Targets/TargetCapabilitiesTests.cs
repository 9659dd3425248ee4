using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>A module's core is what every kind has; what only some kinds have is a capability the module implements, and a
/// kind without it is asked for nothing.</summary>
[UnitTest]
public sealed class TargetCapabilitiesTests
{
    private static List<TargetKind> KindsWith<TCapability>() => [.. TargetRegistry.All.Where(m => m is TCapability).Select(m => m.Kind)];

    [Fact]
    public void RequestUnits_AreReportedByCosmosDbAndTheSimulatorOnly()
    {
        Assert.Equal([TargetKind.Simulated, TargetKind.CosmosSql, TargetKind.CosmosTable], KindsWith<IRequestUnitThroughput>());
        Assert.All(TargetRegistry.All, m => Assert.Equal(m is IRequestUnitThroughput, m.Kind.ReportsRequestUnits()));
        Assert.False(TargetRegistry.Unknown.Kind.ReportsRequestUnits());
    }

    [Fact]
    public void ServiceEndpoints_AreEveryKindThatConnectsToAService_NotTheSimulatorOrTheNoOpTarget()
    {
        Assert.Equal(
            [TargetKind.CosmosSql, TargetKind.TableStorage, TargetKind.CosmosTable, TargetKind.BlobStorage, TargetKind.QueueStorage, TargetKind.Redis],
            KindsWith<IServiceEndpoints>());
        Assert.All(TargetRegistry.All.OfType<IServiceEndpoints>(), m => Assert.NotEmpty(m.ServiceHostPatterns));
    }

    [Fact]
    public void ClientConnection_IsSaidForCosmosDbAndRedisOnly()
    {
        Assert.Equal([TargetKind.CosmosSql, TargetKind.Redis], KindsWith<IClientConnection>());

        var cosmos = (IClientConnection)TargetKind.CosmosSql.Module;
        var options = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { ConnectionMode = CosmosConnectionMode.Gateway, Bulk = true } };
        Assert.Equal(("Gateway", true), (cosmos.ConnectionText(options), cosmos.ClientGroupsWrites(options)));
        Assert.Null(((IClientConnection)TargetKind.Redis.Module).ClientGroupsWrites(new TargetOptions { Kind = TargetKind.Redis }));
    }

    [Fact]
    public void ProvisionsOnCreate_IsCosmosDbsRequestUnits_OnlyWhenTheRunCreatesTheContainer()
    {
        var cosmos = (IRequestUnitThroughput)TargetKind.CosmosSql.Module;
        var creates = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { RequestUnits = 4_000 } };

        Assert.Equal(new ProvisionedThroughput("Target.Cosmos.RequestUnits", 4_000), cosmos.ProvisionsOnCreate(creates));
        Assert.Null(cosmos.ProvisionsOnCreate(creates with { Cosmos = creates.Cosmos with { CreateIfMissing = false } }));
        Assert.Equal(4_000, cosmos.PlannedRequestUnits(creates));

        // The simulator spends a model's budget and the Table API's throughput is the account's: neither provisions anything.
        var simulator = (IRequestUnitThroughput)TargetKind.Simulated.Module;
        var cosmosTable = (IRequestUnitThroughput)TargetKind.CosmosTable.Module;
        Assert.Null(simulator.ProvisionsOnCreate(new TargetOptions()));
        Assert.Equal(10_000, simulator.PlannedRequestUnits(new TargetOptions()));
        Assert.Null(cosmosTable.ProvisionsOnCreate(new TargetOptions { Kind = TargetKind.CosmosTable }));
        Assert.Null(cosmosTable.PlannedRequestUnits(new TargetOptions { Kind = TargetKind.CosmosTable }));
    }

    [Fact]
    public void PlannedEndpoint_IsNamedByCosmosDbAndRedis_AndATableConnectionStringNamesItsOwn()
    {
        var cosmos = (IServiceEndpoints)TargetKind.CosmosSql.Module;
        var tables = (IServiceEndpoints)TargetKind.TableStorage.Module;
        var options = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/" } };

        Assert.Equal(new TargetEndpoint("Target.Cosmos.Endpoint", new Uri("https://acme.documents.azure.com:443/")), cosmos.PlannedEndpoint(options));
        Assert.Null(cosmos.EndpointOfSecret(TargetKind.CosmosSql.Module.Fields[1], "a2V5"));
        Assert.Null(tables.PlannedEndpoint(new TargetOptions { Kind = TargetKind.TableStorage }));
        Assert.Equal(new Uri("https://acme.table.core.windows.net/"),
            tables.EndpointOfSecret(TargetKind.TableStorage.Module.Fields[0], "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5"));
    }
}
