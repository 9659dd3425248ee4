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
    public async Task RunAsync_KeepsTheSdkDiagnosticsOfEveryHeldWrite_AndOfNothingFasterThanTheThreshold()
    {
        // One document write in 100 is held 200 ms; the threshold (150 ms) keeps each of those. An ordinary loopback write takes
        // a few milliseconds on an idle machine, so there the held ones are all that is kept; on a starved one an ordinary write
        // can itself take longer than 150 ms and is then rightly kept too, so the test asks only that every other entry really
        // was slower than the threshold.
        var writes = 0;
        await using var proxy = await CosmosFaultProxy.StartDelayingAsync(
            server.Endpoint,
            request => request.Method == "POST" && request.Path.Value!.EndsWith("/docs", StringComparison.Ordinal) && Interlocked.Increment(ref writes) % 100 == 0,
            TimeSpan.FromMilliseconds(200));
        var plan = new RunPlan
        {
            Name = "held writes",
            Target = Through(proxy),
            Load = new LoadOptions { Concurrency = 2 },
            Stop = new StopOptions { TotalDocuments = 500 },
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 150, SlowestPerSecond = 0 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, Context);

        Assert.Equal(RunStatus.Completed, result.Status);
        var held = proxy.Held.ToList();
        Assert.Equal(5, held.Count);
        Assert.All(held, id => Assert.False(string.IsNullOrEmpty(id), "the server sent no activity id"));
        var kept = result.SlowRequests;
        var others = kept.Where(k => !held.Any(id => k.Text.Contains(id, StringComparison.OrdinalIgnoreCase))).ToList();
        Assert.Equal(held.Count, kept.Count - others.Count);
        Assert.All(others, k => Assert.True(k.LatencyMs >= plan.Diagnostics.ThresholdMs!.Value, $"kept at {k.LatencyMs} ms, under the threshold: {k.Summary}"));
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
