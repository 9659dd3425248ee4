using System.Globalization;
using System.Text;
using BenchEngine.Running;

namespace Benchmarks;

/// <summary>3. Scaling with concurrency, and waves against a sliding window.</summary>
internal sealed class ScalingBenchmark : IBenchmark
{
    public string Name => "scaling";

    public async Task RunAsync(BenchmarkHost host)
    {
        Console.WriteLine("## Scaling (documents/s; entities/s for batches)");
        foreach (var concurrency in new[] { 1, 8, 32, 64 })
        {
            var line = new StringBuilder($"concurrency {concurrency,2}:");
            if (host.Tables is not null)
            {
                var single = await host.RunAsync(BenchmarkHost.TablePlan("t", concurrency, Math.Min(20_000, 1_500 * concurrency)));
                var batch = await host.RunAsync(BenchmarkHost.TablePlan("b", concurrency, Math.Min(100_000, 5_000 * concurrency), 100));
                line.Append(CultureInfo.InvariantCulture, $" Azurite single {single.Summary.AverageThroughput,8:N0} · Azurite 100-entity transactions {batch.Summary.AverageThroughput,8:N0}");
            }

            if (host.Cosmos is not null)
            {
                var point = await host.RunAsync(host.CosmosPlan("c", concurrency, Math.Min(20_000, 1_000 * concurrency)));
                line.Append(CultureInfo.InvariantCulture, $" · Cosmos API server point {point.Summary.AverageThroughput,8:N0}");
            }

            Console.WriteLine(line);
        }

        if (host.Tables is not null)
        {
            foreach (var concurrency in new[] { 10, 32 })
            {
                var waves = await host.RunAsync(BenchmarkHost.TablePlan("waves", concurrency, 50_000, 100, LoadModel.Waves));
                var window = await host.RunAsync(BenchmarkHost.TablePlan("window", concurrency, 50_000, 100, LoadModel.ClosedLoop));
                Console.WriteLine($"Azurite 100-entity transactions at concurrency {concurrency}: waves with a barrier {waves.Summary.AverageThroughput:N0}/s (p99 batch {waves.Summary.Latency.P99Ms:F0} ms) · sliding window {window.Summary.AverageThroughput:N0}/s (p99 batch {window.Summary.Latency.P99Ms:F0} ms)");
            }
        }
    }
}
