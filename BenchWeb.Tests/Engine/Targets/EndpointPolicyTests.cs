using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>The host decides which endpoints a target may reach: the endpoint it is given, and every connection the
/// SDKs open on their own (redirects, regional endpoints the service names).</summary>
[IntegrationTest]
public sealed class EndpointPolicyTests
{
    private const string Refusal = "not on the allow-list";

    [Theory]
    [InlineData("CosmosSql")]
    [InlineData("TableStorage")]
    [InlineData("CosmosTable")]
    public async Task InitializeAsync_RefusesBeforeAnyRequest_WhenThePolicyRefusesTheEndpoint(string kindName)
    {
        var kind = new TargetKind(kindName);
        await using var silent = new SilentServer();
        var context = TargetStartupTests.Context(silent) with { Endpoints = new EndpointPolicy(uri => uri.Port == silent.Port ? Refusal : null) };
        await using var target = TargetRegistry.Create(TargetStartupTests.Target(kind, silent.Endpoint), context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Contains(Refusal, ex.Message, StringComparison.Ordinal);
        Assert.Equal(0, await silent.ConnectionsBeforeAsync());
    }

    [Theory]
    [InlineData("CosmosSql")]
    [InlineData("TableStorage")]
    public async Task InitializeAsync_RefusesPlainHttpToAnotherMachine_WithTheDefaultPolicy(string kindName)
    {
        var kind = new TargetKind(kindName);
        const string Remote = "http://acct.example.invalid/";
        var context = new TargetContext(TimeProvider.System, name => name switch
        {
            "COSMOS_KEY" => Convert.ToBase64String(new byte[64]),
            "TABLES_CONNECTION_STRING" => $"DefaultEndpointsProtocol=http;AccountName=acct;AccountKey={AzuriteServer.DevelopmentKey};TableEndpoint={Remote}acct;",
            _ => null,
        });
        await using var target = TargetRegistry.Create(TargetStartupTests.Target(kind, Remote), context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Contains("Use https for 'acct.example.invalid'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task InitializeAsync_RefusesDirectMode_WhenThePolicyCannotSeeItsConnections()
    {
        await using var silent = new SilentServer();
        var context = TargetStartupTests.Context(silent) with { Endpoints = new EndpointPolicy(_ => null, allowDirectMode: false) };
        var options = TargetStartupTests.Target(TargetKind.CosmosSql, silent.Endpoint);
        await using var target = TargetRegistry.Create(options with { Cosmos = options.Cosmos with { ConnectionMode = CosmosConnectionMode.Direct } }, context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Contains("Use Gateway mode", ex.Message, StringComparison.Ordinal);
        Assert.Equal(0, await silent.ConnectionsBeforeAsync());
    }

    [Fact]
    public async Task ConnectCallback_RefusesAHost_WhenThePolicyRefusesIt()
    {
        await using var silent = new SilentServer();
        var policy = new EndpointPolicy(uri => uri.Host == "localhost" ? Refusal : null);
        using var client = new HttpClient(PolicedHttpHandler.Create(policy, acceptAnyServerCertificate: false)) { Timeout = TimeSpan.FromSeconds(2) };

        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetAsync(new Uri($"http://localhost:{silent.Port}/")));

        Assert.Contains(Refusal, ex.InnerException?.Message, StringComparison.Ordinal);

        // The same handler connects to a host the policy allows: that is the one connection the server saw.
        await Assert.ThrowsAnyAsync<TaskCanceledException>(() => client.GetAsync(new Uri($"http://127.0.0.1:{silent.Port}/")));
        Assert.Equal(1, await silent.ConnectionsBeforeAsync());
    }

    [Fact]
    public async Task ConnectCallback_RefusesAHost_WhenTheSchemeRuleRefusesIt()
    {
        using var client = new HttpClient(PolicedHttpHandler.Create(EndpointPolicy.Default, acceptAnyServerCertificate: false)) { Timeout = TimeSpan.FromSeconds(2) };

        // Plain http to a host that is not loopback: refused before any name lookup or connection.
        var ex = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetAsync(new Uri("http://example.invalid/")));

        Assert.Contains("https", ex.InnerException?.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://acct.documents.azure.com:443/", null)]
    [InlineData("http://127.0.0.1:10002/devstoreaccount1", null)]
    [InlineData("http://localhost:8081/", null)]
    [InlineData("http://[::1]:8081/", null)]
    [InlineData("http://acct.table.core.windows.net/", "https")]
    [InlineData("http://10.0.0.1/", "https")]
    [InlineData("ftp://127.0.0.1/", "http or https")]
    public void Default_AllowsHttpsAnywhere_AndHttpOnlyOnLoopback(string endpoint, string? refusal)
    {
        var message = EndpointPolicy.Default.Check(new Uri(endpoint));

        if (refusal is null)
        {
            Assert.Null(message);
        }
        else
        {
            Assert.Contains(refusal, message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Check_AppliesTheSchemeRule_BeforeTheHostsOwnCheck()
    {
        var allowAll = new EndpointPolicy(_ => null);

        Assert.NotNull(allowAll.Check(new Uri("http://acct.documents.azure.com/")));
        Assert.Null(allowAll.Check(new Uri("https://acct.documents.azure.com/")));
    }
}
