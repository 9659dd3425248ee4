using System.Text;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Cosmos DB target's slow-request diagnostics against the local Cosmos API server, through a proxy that holds
/// chosen writes: the SDK's own text of exactly the requests held, and no key in it.</summary>
[Collection(CosmosApiCollection.Name)]
[IntegrationTest]
public class SlowRequestDiagnosticsCosmosTests(CosmosApiServer server)
{
    /// <summary>A key the server accepts (it accepts any) and no text may hold: base64, as the SDK wants.</summary>
    private static readonly string MarkerKey = Convert.ToBase64String(Encoding.ASCII.GetBytes("benchweb-secret-marker-account-key-do-not-leak-0123456789"));

    private static TargetContext Context => new(TimeProvider.System, name => name == "COSMOS_KEY" ? MarkerKey : null);

    private static TargetOptions Through(CosmosFaultProxy proxy) => new()
    {
        Kind = TargetKind.CosmosSql,
        Cosmos = new CosmosOptions
        {
            Endpoint = proxy.Endpoint,
            ConnectionMode = CosmosConnectionMode.Gateway,
            LimitToEndpoint = true,
            Database = "benchweb",
            Container = "d" + Guid.NewGuid().ToString("N")[..12],
            RequestUnits = null,
        },
    };

    [Fact]
    public async Task RunAsync_KeepsTheSdkDiagnosticsOfExactlyTheHeldWrites_WhenTheThresholdIsBelowTheHold()
    {
        // One document write in 100 is held 1.2 s; the threshold (800 ms) keeps those and no other. The gap is wide on purpose:
        // on a busy shared machine an ordinary loopback write can take 150–300 ms, and such a write is rightly kept by a
        // threshold that low.
        var writes = 0;
        await using var proxy = await CosmosFaultProxy.StartDelayingAsync(
            server.Endpoint,
            request => request.Method == "POST" && request.Path.Value!.EndsWith("/docs", StringComparison.Ordinal) && Interlocked.Increment(ref writes) % 100 == 0,
            TimeSpan.FromMilliseconds(1_200));
        var plan = new RunPlan
        {
            Name = "held writes",
            Target = Through(proxy),
            Load = new LoadOptions { Concurrency = 2 },
            Stop = new StopOptions { TotalDocuments = 500 },
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 800, SlowestPerSecond = 0 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(RunStatus.Completed, result.Status);
        var held = proxy.Held.ToList();
        Assert.Equal(5, held.Count);
        Assert.All(held, id => Assert.False(string.IsNullOrEmpty(id), "the server sent no activity id"));
        var kept = result.SlowRequests;
        var extra = kept.Where(k => !held.Any(id => k.Text.Contains(id, StringComparison.OrdinalIgnoreCase))).ToList();
        Assert.True(kept.Count == held.Count,
            $"{kept.Count} kept for {held.Count} held: {string.Join(" | ", kept.Select(k => k.Summary))}\nextra: {string.Join("\n\n", extra.Select(k => k.Text))}");
        foreach (var id in held)
        {
            // The SDK's own text names the activity id the server answered with: each held write is kept once, with its diagnostics.
            var entry = Assert.Single(kept, k => k.Text.Contains(id, StringComparison.OrdinalIgnoreCase));
            Assert.InRange(entry.LatencyMs, plan.Diagnostics.ThresholdMs!.Value, 60_000);
            Assert.Equal((201, OutcomeKind.Ok), (entry.StatusCode, entry.Outcome));
            Assert.Contains("CreateItemStreamAsync", entry.Text, StringComparison.Ordinal);
            Assert.Contains("Gateway", entry.Summary, StringComparison.Ordinal);
            Assert.StartsWith("Cosmos DB", entry.Target, StringComparison.Ordinal);
            Assert.InRange(entry.Second, 0, result.Seconds.Count - 1);
        }

        // The Cosmos endpoint may be in them; the key never.
        Assert.All(kept, k => Assert.DoesNotContain(MarkerKey, k.Text + k.Summary, StringComparison.Ordinal));
        Assert.Equal(500, result.Summary.TotalOk);
    }

    [Fact]
    public async Task RunAsync_KeepsTheSlowestWriteOfEverySecond_ByDefault()
    {
        await using var proxy = await CosmosFaultProxy.StartDelayingAsync(server.Endpoint, _ => false, TimeSpan.Zero);
        var plan = new RunPlan
        {
            Name = "default diagnostics",
            Target = Through(proxy),
            Load = new LoadOptions { Concurrency = 2 },
            Stop = new StopOptions { DurationSeconds = 2 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(RunStatus.Completed, result.Status);
        var secondsWithWrites = result.Seconds.Where(s => s.OkRequests > 0).Select(s => s.Index).ToList();
        Assert.Equal(secondsWithWrites, result.SlowRequests.Select(r => r.Second).ToList());
        foreach (var entry in result.SlowRequests)
        {
            Assert.Equal(result.Seconds[entry.Second].LatencyMaxMs!.Value, entry.LatencyMs, tolerance: result.Seconds[entry.Second].LatencyMaxMs!.Value * 0.01 + 0.01);
            Assert.Contains("CreateItemStreamAsync", entry.Text, StringComparison.Ordinal);
            Assert.DoesNotContain(MarkerKey, entry.Text, StringComparison.Ordinal);
        }
    }
}
