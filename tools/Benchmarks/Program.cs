using System.Globalization;
using Benchmarks;

// Benchmarks of the engine itself. Local servers are given by environment variables (tools/bench.sh starts them):
//   BENCH_TABLES_CONNECTION_STRING  Azurite's connection string
//   BENCH_COSMOS_ENDPOINT           the Cosmos DB API server (Gateway, http)
// The dashboard benchmarks start BenchWeb.dll (copied beside this program) and drive Debian's Chromium
// (BENCHWEB_CHROMIUM, default /usr/bin/chromium).
// Usage: Benchmarks NAME|all [memory document count]; one class a benchmark, each in its own file.
CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
var which = args.Length > 0 ? args[0] : "all";

// In the order `all` runs them (agents never, redis-peer only with a server: see their RunsUnderAll).
IBenchmark[] benchmarks =
[
    new EngineCostBenchmark(),
    new GoodputBenchmark(),
    new ScalingBenchmark(),
    new MemoryBenchmark(args.Length > 1 ? args[1] : null),
    new DashboardOverheadBenchmark(),
    new PushLatencyBenchmark(),
    new PushLatencyBenchmark(shared: true),
    new PushFanoutBenchmark(),
    new PushFanoutBenchmark(shared: true),
    new HistoryPageBenchmark(),
    new TelemetryCostBenchmark(),
    new AgentsBenchmark(),
    new ClientHealthBenchmark(),
    new HealthCostBenchmark(),
    new ClockBenchmark(),
    new EngineCeilingBenchmark(),
    new RedisPeerBenchmark(),
    new TablePeerBenchmark(),
];

var chosen = which == "all" ? benchmarks.Where(b => b.RunsUnderAll).ToList() : benchmarks.Where(b => b.Name == which).ToList();
if (chosen.Count == 0)
{
    Console.Error.WriteLine($"Unknown benchmark \"{which}\". Names: {string.Join(", ", benchmarks.Select(b => b.Name))}, all.");
    return 2;
}

var host = new BenchmarkHost(Environment.GetEnvironmentVariable("BENCH_TABLES_CONNECTION_STRING"), Environment.GetEnvironmentVariable("BENCH_COSMOS_ENDPOINT"));
foreach (var benchmark in chosen)
{
    await benchmark.RunAsync(host);
}

return 0;
