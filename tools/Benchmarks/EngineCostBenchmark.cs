using System.Diagnostics;
using System.Text;
using Azure.Data.Tables;
using BenchEngine.Running;
using Microsoft.Azure.Cosmos;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>1. Engine cost: the engine's inserts/s ÷ a bare loop of the same SDK calls at the same concurrency.</summary>
internal sealed class EngineCostBenchmark : IBenchmark
{
    public string Name => "engine-cost";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int concurrency = 32;
        const int total = 10_000;
        Console.WriteLine($"## Engine cost (concurrency {concurrency}, {total:N0} small documents per run, alternating bare/engine, 1 warm-up + 5 rounds)");
        if (host.Tables is not null)
        {
            await CompareAsync("Azurite single inserts", () => BareTablesAsync(host, concurrency, total), () => BenchmarkHost.TablePlan("engine", concurrency, total));
        }

        if (host.Cosmos is not null)
        {
            await CompareAsync("Cosmos API server point inserts", () => BareCosmosAsync(host, concurrency, total), () => host.CosmosPlan("engine", concurrency, total));
        }

        async Task CompareAsync(string what, Func<Task<double>> bareLoop, Func<RunPlan> plan)
        {
            // One discarded round warms the JIT, the connection pools and the server.
            await bareLoop();
            await host.RunAsync(plan());
            var bare = new List<double>();
            var engine = new List<double>();
            var bareCpu = new List<double>();
            var engineCpu = new List<double>();
            // The measured rounds skip the engine's warm-up (0.3 s of its hot path on the no-op target before a run's clock
            // starts, never counted in its throughput): the discarded round warmed this process's code already, and the
            // warm-up's CPU would count as 30 µs an insert of a 10,000-insert run.
            var warm = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
            for (var round = 0; round < 5; round++)
            {
                // This process's CPU per insert: the client's cost, which on two shared cores is taken from the server's.
                var cpu = Process.GetCurrentProcess().TotalProcessorTime;
                bare.Add(await bareLoop());
                bareCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / total);
                cpu = Process.GetCurrentProcess().TotalProcessorTime;
                engine.Add((await host.RunAsync(plan(), runner: warm)).Summary.AverageThroughput);
                engineCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / total);
            }

            Console.WriteLine($"{what}: bare {string.Join(", ", bare.Select(v => v.ToString("N0")))}/s · engine {string.Join(", ", engine.Select(v => v.ToString("N0")))}/s · ratio of medians {Median(engine) / Median(bare):F3}"
                + $" · client CPU an insert: bare {Median(bareCpu):F1} µs, engine {Median(engineCpu):F1} µs");
        }
    }

    private static async Task<double> BareTablesAsync(BenchmarkHost host, int concurrency, int total)
    {
        var options = new TableClientOptions();
        options.Retry.MaxRetries = 0;
        var table = new TableServiceClient(host.Tables, options).GetTableClient("bare" + Guid.NewGuid().ToString("N")[..12]);
        await table.CreateIfNotExistsAsync();
        var stopwatch = Stopwatch.StartNew();
        await Parallel.ForEachAsync(Enumerable.Range(0, total), new ParallelOptions { MaxDegreeOfParallelism = concurrency }, async (i, ct) =>
        {
            var entity = new TableEntity(Guid.NewGuid().ToString(), Guid.NewGuid().ToString())
            {
                ["KeyNumber"] = i,
                ["SomeText"] = "Lorem ipsum dolor sit amet, consectetur adipiscing",
                ["SomeCount"] = i % 100,
            };
            await table.AddEntityAsync(entity, ct);
        });
        return total / stopwatch.Elapsed.TotalSeconds;
    }

    private static async Task<double> BareCosmosAsync(BenchmarkHost host, int concurrency, int total)
    {
        using var client = new CosmosClient(host.Cosmos, host.CosmosKey, new CosmosClientOptions { ConnectionMode = ConnectionMode.Gateway, LimitToEndpoint = true, MaxRetryAttemptsOnRateLimitedRequests = 0, EnableContentResponseOnWrite = false });
        Database database = await client.CreateDatabaseIfNotExistsAsync("benchweb");
        Container container = await database.CreateContainerIfNotExistsAsync("bare" + Guid.NewGuid().ToString("N")[..12], "/PartitionKey");
        var stopwatch = Stopwatch.StartNew();
        await Parallel.ForEachAsync(Enumerable.Range(0, total), new ParallelOptions { MaxDegreeOfParallelism = concurrency }, async (i, ct) =>
        {
            var pk = Guid.NewGuid().ToString();
            var json = $$"""{"id":"{{Guid.NewGuid()}}","KeyNumber":{{i}},"SomeText":"Lorem ipsum dolor sit amet, consectetur adipiscing","SomeCount":{{i % 100}},"PartitionKey":"{{pk}}"}""";
            using var stream = new MemoryStream(Encoding.UTF8.GetBytes(json));
            using var response = await container.CreateItemStreamAsync(stream, new PartitionKey(pk), new ItemRequestOptions { EnableContentResponseOnWrite = false }, ct);
            response.EnsureSuccessStatusCode();
        });
        return total / stopwatch.Elapsed.TotalSeconds;
    }
}
