using System.Diagnostics;
using System.Text;
using Azure.Data.Tables;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using Microsoft.Azure.Cosmos;
using static Benchmarks.HostLoad;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>1. Engine cost: the engine's inserts/s ÷ a bare loop of the same SDK calls at the same concurrency; and the cost of
/// the slowest requests' diagnostics: the engine with them as a plan has them by default (the slowest of every second), and
/// with every request a candidate (threshold 0: ten described a second), each ÷ the engine with them off.</summary>
internal sealed class EngineCostBenchmark : IBenchmark
{
    public string Name => "engine-cost";

    /// <summary>The diagnostics settings compared: off, the default, and every request over the threshold.</summary>
    private static readonly (string Name, DiagnosticsOptions Options)[] Diagnostics =
    [
        ("off", new DiagnosticsOptions { SlowestPerSecond = 0 }),
        ("default", DiagnosticsOptions.Default),
        ("threshold 0", new DiagnosticsOptions { ThresholdMs = 0 }),
    ];

    public async Task RunAsync(BenchmarkHost host)
    {
        const int concurrency = 32;
        const int total = 10_000;
        Console.WriteLine($"## Engine cost (concurrency {concurrency}, {total:N0} small documents per run, alternating bare / engine with diagnostics off, default, threshold 0; 1 warm-up + 5 rounds, 15 for the no-op target; load average {LoadAverage()})");
        if (host.Tables is not null)
        {
            await CompareAsync("Azurite single inserts", () => BareTablesAsync(host, concurrency, total), () => BenchmarkHost.TablePlan("engine", concurrency, total));
        }

        if (host.Cosmos is not null)
        {
            await CompareAsync("Cosmos API server point inserts", () => BareCosmosAsync(host, concurrency, total), () => host.CosmosPlan("engine", concurrency, total));
        }

        // The engine alone (nothing sent): where a cost per request of the diagnostics would show most.
        await CompareAsync("No-op target (the engine alone, 1,000,000 a run)", null, () => new RunPlan
        {
            Name = "engine",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Concurrency = concurrency },
            Stop = new StopOptions { TotalDocuments = 1_000_000 },
        });

        async Task CompareAsync(string what, Func<Task<double>>? bareLoop, Func<RunPlan> plan)
        {
            // One discarded round warms the JIT, the connection pools and the server.
            if (bareLoop is not null)
            {
                await bareLoop();
            }

            foreach (var (_, options) in Diagnostics)
            {
                await host.RunAsync(plan() with { Diagnostics = options });
            }

            var bare = new List<double>();
            var bareCpu = new List<double>();
            var engine = Diagnostics.ToDictionary(d => d.Name, _ => new List<double>());
            var engineCpu = Diagnostics.ToDictionary(d => d.Name, _ => new List<double>());
            var kept = Diagnostics.ToDictionary(d => d.Name, _ => new List<double>());
            var engineBytes = Diagnostics.ToDictionary(d => d.Name, _ => new List<double>());
            // The measured rounds skip the engine's warm-up (0.3 s of its hot path on the no-op target before a run's clock
            // starts, never counted in its throughput): the discarded round warmed this process's code already, and the
            // warm-up's CPU would count as 30 µs an insert of a 10,000-insert run.
            var warm = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
            // The engine alone runs a second a run: more rounds resolve the few per cent a round of a shared machine varies by.
            var rounds = bareLoop is null ? 15 : 5;
            for (var round = 0; round < rounds; round++)
            {
                // This process's CPU per insert: the client's cost, which on two shared cores is taken from the server's.
                if (bareLoop is not null)
                {
                    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
                    bare.Add(await bareLoop());
                    bareCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / total);
                }

                // Each setting in its turn, the order rotated every round: none always runs first or last.
                for (var k = 0; k < Diagnostics.Length; k++)
                {
                    var (name, options) = Diagnostics[(k + round) % Diagnostics.Length];
                    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
                    var allocated = GC.GetTotalAllocatedBytes(precise: true);
                    var result = await host.RunAsync(plan() with { Diagnostics = options }, runner: warm);
                    engineBytes[name].Add((GC.GetTotalAllocatedBytes(precise: true) - allocated) / (double)result.Summary.TotalOk);
                    engine[name].Add(result.Summary.AverageThroughput);
                    engineCpu[name].Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / result.Summary.TotalOk);
                    kept[name].Add(result.SlowRequests.Count);
                }
            }

            string Rates(List<double> rates) => string.Join(", ", rates.Select(v => v.ToString("N0")));
            if (bareLoop is not null)
            {
                Console.WriteLine($"{what}: bare {Rates(bare)}/s · engine (default diagnostics) {Rates(engine["default"])}/s · ratio of medians {Median(engine["default"]) / Median(bare):F3}"
                    + $" · client CPU an insert: bare {Median(bareCpu):F1} µs, engine {Median(engineCpu["default"]):F1} µs");
            }

            var off = Median(engine["off"]);
            Console.WriteLine($"{what}, diagnostics: off {Rates(engine["off"])}/s ({Median(engineCpu["off"]):F2} µs CPU and {Median(engineBytes["off"]):N0} bytes allocated an insert)");
            foreach (var (name, _) in Diagnostics.Skip(1))
            {
                Console.WriteLine($"  {name} {Rates(engine[name])}/s ({Median(engineCpu[name]):F2} µs CPU and {Median(engineBytes[name]):N0} bytes allocated an insert, {Median(kept[name]):N0} requests kept a run)"
                    + $" · ratio of medians with ÷ without {Median(engine[name]) / off:F3} (target ≥ 0.97)");
            }
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
