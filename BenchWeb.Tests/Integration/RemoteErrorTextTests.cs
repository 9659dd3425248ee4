using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>What a remote endpoint answers is not ours to show: failure texts carry status codes, sub-status codes,
/// the SDK's error code and exception type names, never the body or reason phrase the other side sent.</summary>
[Collection(CosmosApiCollection.Name)]
[IntegrationTest]
public sealed class RemoteErrorTextTests(CosmosApiServer cosmos)
{
    private const string Marker = "REMOTE-MARKER-5d2c";

    private static readonly string CosmosBody = JsonSerializer.Serialize(new { code = "BadRequest", message = $"{Marker} said the server\r\nActivityId: {Marker}" });

    private static Document OneDocument() => new(Guid.NewGuid().ToString(), "pk", [new("PartitionKey", "pk"), new("Value", 1)]);

    [Theory]
    [InlineData("TableStorage")]
    [InlineData("CosmosTable")]
    public async Task TableWrite_ReportsStatusAndErrorCode_NeverTheRemoteText(string kindName)
    {
        var kind = new TargetKind(kindName);
        await using var server = await StubTableServer.StartAsync(400, "InvalidInput", message: $"{Marker} in the body", reasonPhrase: Marker);
        await using var target = TargetRegistry.Create(new TargetOptions { Kind = kind }, TableContext(server));
        await target.InitializeAsync(CancellationToken.None);

        var outcome = await target.WriteAsync([OneDocument()], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, 400), (outcome.Kind, outcome.StatusCode));
        Assert.StartsWith("400 InvalidInput", outcome.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TableOpen_ReportsStatusAndErrorCode_NeverTheRemoteText()
    {
        await using var server = await StubTableServer.StartAsync(403, "AuthorizationFailure", message: $"{Marker} in the body", reasonPhrase: Marker, failTableCreation: true);
        var plan = new RunPlan { Name = "remote text", Target = new TargetOptions { Kind = TargetKind.TableStorage }, Stop = new StopOptions { TotalDocuments = 5 } };

        var result = await new BenchmarkRunner().RunAsync(plan, TableContext(server));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("403 AuthorizationFailure", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TableRun_KeepsTheRemoteTextOutOfTheResult()
    {
        await using var server = await StubTableServer.StartAsync(400, "InvalidInput", message: $"{Marker} in the body", reasonPhrase: Marker);
        var plan = new RunPlan { Name = "remote text", Target = new TargetOptions { Kind = TargetKind.TableStorage }, Stop = new StopOptions { TotalDocuments = 5 } };

        var result = await new BenchmarkRunner().RunAsync(plan, TableContext(server));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.DoesNotContain(Marker, result.FailureReason + result.FirstError + result.StopReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CosmosWrite_ReportsStatusAndSubStatus_NeverTheRemoteText()
    {
        await using var proxy = await CosmosFaultProxy.StartAsync(
            cosmos.Endpoint, r => r.Method == "POST" && r.Path.Value!.EndsWith("/docs", StringComparison.Ordinal), 400, CosmosBody, Marker,
            new Dictionary<string, string> { ["x-ms-substatus"] = "1001" });
        await using var target = TargetRegistry.Create(CosmosTarget(proxy, "remote" + Guid.NewGuid().ToString("N")[..8]), CosmosContext);
        await target.InitializeAsync(CancellationToken.None);

        var outcome = await target.WriteAsync([OneDocument()], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Error, 400), (outcome.Kind, outcome.StatusCode));
        Assert.StartsWith("400 BadRequest", outcome.Error, StringComparison.Ordinal);
        Assert.Contains("1001", outcome.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, outcome.Error, StringComparison.Ordinal);
        Assert.Equal(1, proxy.Faults);
    }

    [Fact]
    public async Task CosmosOpen_ReportsTheStatus_NeverTheRemoteText()
    {
        await using var proxy = await CosmosFaultProxy.StartAsync(cosmos.Endpoint, r => r.Path.Value!.StartsWith("/dbs", StringComparison.Ordinal), 403, CosmosBody, Marker);
        var plan = new RunPlan { Name = "remote text", Target = CosmosTarget(proxy, "never"), Stop = new StopOptions { TotalDocuments = 5 } };

        var result = await new BenchmarkRunner().RunAsync(plan, CosmosContext);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("403", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CosmosRun_KeepsTheRemoteTextOutOfTheResult()
    {
        await using var proxy = await CosmosFaultProxy.StartAsync(
            cosmos.Endpoint, r => r.Method == "POST" && r.Path.Value!.EndsWith("/docs", StringComparison.Ordinal), 503, CosmosBody, Marker);
        var plan = new RunPlan { Name = "remote text", Target = CosmosTarget(proxy, "remote" + Guid.NewGuid().ToString("N")[..8]), Stop = new StopOptions { TotalDocuments = 5 } };

        var result = await new BenchmarkRunner().RunAsync(plan, CosmosContext);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("503", result.FirstError, StringComparison.Ordinal);
        Assert.DoesNotContain(Marker, result.FailureReason + result.FirstError + result.StopReason, StringComparison.Ordinal);
    }

    private static TargetContext CosmosContext => new(TimeProvider.System, name => name == "COSMOS_KEY" ? CosmosApiServer.AnyKey : null);

    private static TargetContext TableContext(StubTableServer server) => new(TimeProvider.System, _ => server.ConnectionString);

    private static TargetOptions CosmosTarget(CosmosFaultProxy proxy, string container) => new()
    {
        Kind = TargetKind.CosmosSql,
        Cosmos = new CosmosOptions
        {
            Endpoint = proxy.Endpoint,
            ConnectionMode = CosmosConnectionMode.Gateway,
            LimitToEndpoint = true,
            Container = container,
            RequestUnits = null,
        },
    };
}
