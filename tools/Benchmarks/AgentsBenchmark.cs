using System.Diagnostics;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using static Benchmarks.DashboardDatabase;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>10. Runs spread over agents (shared mode): 1, 2 and 3 agent processes of the dashboard on one PostgreSQL and one Redis
/// (tools/bench.sh starts them: BENCH_POSTGRES, BENCH_REDIS), the simulator with a latency-bound profile (20 ms median,
/// 40 workers per agent: far below this machine's CPU), each agent count twice, alternating. The combined throughput
/// should be N times one agent's; the run's p99 must be the p99 of the shards' histograms merged here independently.</summary>
internal sealed class AgentsBenchmark : IBenchmark
{
    public string Name => "agents";

    // Not under all: it needs PostgreSQL, Redis and three dashboard processes (tools/bench.sh agents starts them).
    public bool RunsUnderAll => false;

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 2;
        const int workersPerAgent = 40;
        var database = Environment.GetEnvironmentVariable("BENCH_POSTGRES") ?? throw new InvalidOperationException("BENCH_POSTGRES is not set: run tools/bench.sh agents.");
        var redis = Environment.GetEnvironmentVariable("BENCH_REDIS") ?? throw new InvalidOperationException("BENCH_REDIS is not set: run tools/bench.sh agents.");
        Console.WriteLine($"## Agents (shared mode, 3 agent processes; simulator, 20 ms median latency, {workersPerAgent} workers per agent, 20 s; {rounds} rounds of 1, 2, 3 agents)");
        var agents = new List<DashboardProcess>();
        try
        {
            for (var i = 1; i <= 3; i++)
            {
                agents.Add(await DashboardProcess.StartAsync(new Dictionary<string, string>
                {
                    ["BenchWeb__Mode"] = "Shared",
                    ["ConnectionStrings__BenchDb"] = database,
                    ["ConnectionStrings__Redis"] = redis,
                    ["BenchWeb__Agent__Name"] = $"agent-{i}",
                }, port: null));
            }

            using var http = await agents[0].CreateSignedInClientAsync(TimeSpan.FromMinutes(2));
            await WaitForAsync(async () => (await http.GetFromJsonAsync<JsonElement>("api/agents")).EnumerateArray().Count(a => a.GetProperty("state").GetString() == "Alive") >= 3);
            var throughput = new Dictionary<int, List<double>> { [1] = [], [2] = [], [3] = [] };
            for (var round = 1; round <= rounds; round++)
            {
                foreach (var count in new[] { 1, 2, 3 })
                {
                    var plan = new RunPlan
                    {
                        Name = $"agents {count}, round {round}",
                        Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000_000, MedianLatencyMs = 20 } },
                        Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
                        Load = new LoadOptions { Concurrency = workersPerAgent * count, Agents = count },
                        Stop = new StopOptions { DurationSeconds = 20 },
                    };
                    using var launched = await http.PostAsync("api/runs", new StringContent($"{{\"plan\":{plan.ToJson()}}}", Encoding.UTF8, "application/json"));
                    var runId = JsonDocument.Parse(await launched.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt64();
                    JsonElement run = default;
                    await WaitForAsync(async () => (run = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}")).GetProperty("status").GetString() is not ("Queued" or "Running"));
                    var summary = run.GetProperty("summary");
                    var runP99 = summary.GetProperty("latency").GetProperty("p99Ms").GetDouble();
                    var merged = count == 1 ? null : await MergedShardHistogramAsync(database, runId);
                    throughput[count].Add(summary.GetProperty("averageThroughput").GetDouble());
                    Console.WriteLine($"round {round}, {count} agent(s): {run.GetProperty("status").GetString()}, {summary.GetProperty("averageThroughput").GetDouble():N0}/s, p99 {runP99:N3} ms"
                        + (merged is null ? "" : $" (shards' histograms merged here: p99 {merged.MillisecondsAtPercentile(99):N3} ms over {merged.Count:N0} operations)"));
                }
            }

            var one = Median(throughput[1]);
            foreach (var count in new[] { 2, 3 })
            {
                Console.WriteLine($"{count} agents: median {Median(throughput[count]):N0}/s ÷ ({count} × {one:N0}/s) = {Median(throughput[count]) / (count * one):F3} (target ≥ 0.9)");
            }
        }
        finally
        {
            foreach (var agent in agents)
            {
                await agent.DisposeAsync();
            }
        }

        static async Task WaitForAsync(Func<Task<bool>> condition)
        {
            var clock = Stopwatch.StartNew();
            while (!await condition())
            {
                if (clock.Elapsed > TimeSpan.FromMinutes(3))
                {
                    throw new TimeoutException("Waited 3 minutes.");
                }

                await Task.Delay(200);
            }
        }
    }
}
