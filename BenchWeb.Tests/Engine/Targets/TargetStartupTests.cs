using System.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

/// <summary>Opening a real target: the SDKs against a loopback endpoint that accepts connections and never answers,
/// and settings that are wrong before any request.</summary>
[IntegrationTest]
public sealed class TargetStartupTests
{
    private const string KeySecret = "COSMOS_KEY";
    private const string ConnectionStringSecret = "TABLES_CONNECTION_STRING";

    [Theory]
    [InlineData("CosmosSql")]
    [InlineData("TableStorage")]
    public async Task RunAsync_EndsCancelledWithin2Seconds_WhenCancelledWhileTheTargetOpens(string kindName)
    {
        var kind = new TargetKind(kindName);
        await using var silent = new SilentServer();
        var plan = new RunPlan { Name = "hangs", Target = Target(kind, silent.Endpoint), Stop = new StopOptions { TotalDocuments = 10 } };
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(1));

        var clock = Stopwatch.StartNew();
        var result = await new BenchmarkRunner().RunAsync(plan, Context(silent), cancellationToken: cancel.Token).WaitAsync(TimeSpan.FromSeconds(60));
        var afterCancel = clock.Elapsed - TimeSpan.FromSeconds(1);

        Assert.Equal(RunStatus.Cancelled, result.Status);
        Assert.True(afterCancel < TimeSpan.FromSeconds(2), $"returned {afterCancel.TotalSeconds:F1} s after the cancellation");
        Assert.True(silent.Accepted > 0, "the client should have reached the endpoint");
    }

    [Fact]
    public async Task InitializeAsync_NamesTheSecretButNeverItsValue_WhenTheCosmosKeyIsNotBase64()
    {
        await using var silent = new SilentServer();
        const string Key = "not*base64-secret-value";
        var context = new TargetContext(TimeProvider.System, name => name == KeySecret ? Key : null);
        await using var target = TargetRegistry.Create(Target(TargetKind.CosmosSql, silent.Endpoint), context);

        var ex = await Assert.ThrowsAsync<TargetConfigurationException>(() => target.InitializeAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.Contains($"'{KeySecret}'", ex.Message, StringComparison.Ordinal);
        Assert.Contains("base64", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(Key, ex.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, silent.Accepted);
    }

    internal static TargetOptions Target(TargetKind kind, string endpoint) => kind == TargetKind.CosmosSql
        ? new TargetOptions
        {
            Kind = kind,
            Cosmos = new CosmosOptions { Endpoint = endpoint, ConnectionMode = CosmosConnectionMode.Gateway, LimitToEndpoint = true, RequestUnits = null },
        }
        : new TargetOptions { Kind = kind };

    internal static TargetContext Context(SilentServer silent, string host = "127.0.0.1") =>
        new(TimeProvider.System, name => name switch
        {
            KeySecret => Convert.ToBase64String(new byte[64]),
            ConnectionStringSecret => silent.TableConnectionString(host),
            _ => null,
        });
}
