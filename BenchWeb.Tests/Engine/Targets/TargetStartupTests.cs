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

    /// <summary>Far less than the SDKs wait on their own for an endpoint that never answers (Cosmos DB's account read tries
    /// for 5, 10 and 20 s; Azure Tables waits 100 s a try), and far more than a cancel takes to reach them even on a busy
    /// machine: an open that ends within this after a cancel was cancelled, not timed out.</summary>
    internal static readonly TimeSpan WellBeforeTheSdksGiveUp = TimeSpan.FromSeconds(20);

    [Theory]
    [InlineData("CosmosSql")]
    [InlineData("TableStorage")]
    public async Task RunAsync_EndsCancelledBeforeTheSdkGivesUp_WhenCancelledWhileTheTargetOpens(string kindName)
    {
        var kind = new TargetKind(kindName);
        await using var silent = new SilentServer();
        var plan = new RunPlan { Name = "hangs", Target = Target(kind, silent.Endpoint), Stop = new StopOptions { TotalDocuments = 10 } };
        using var cancel = new CancellationTokenSource();
        var run = new BenchmarkRunner().RunAsync(plan, Context(silent), cancellationToken: cancel.Token);

        // Cancelled once the client waits on the endpoint, however long a busy machine took to get there.
        await silent.FirstAccepted.WaitAsync(TimeSpan.FromSeconds(60));
        var clock = Stopwatch.StartNew();
        await cancel.CancelAsync();
        var result = await run.WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(RunStatus.Cancelled, result.Status);
        Assert.True(clock.Elapsed < WellBeforeTheSdksGiveUp, $"returned {clock.Elapsed.TotalSeconds:F1} s after the cancellation");
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
        Assert.Equal(0, await silent.ConnectionsBeforeAsync());
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
