using System.Diagnostics;
using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using static Benchmarks.CpuTimes;
using static Benchmarks.HostLoad;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>15. Redis beside its own C client: redis-benchmark and the engine, the same server, 1 KB values, 50 clients, one SET a request
/// and pipelines of 10, alternating rounds. Throughput each, and CPU per SET: the engine's from this process's CPU time, the
/// peer's from its own (read from /proc after it exited, as this process's children's time).</summary>
internal sealed class RedisPeerBenchmark : IBenchmark
{
    private const string PortVariable = "BENCH_REDIS_PORT";

    public string Name => "redis-peer";

    // Under all only when tools/bench.sh has started a server for it (it does for all).
    public bool RunsUnderAll => Environment.GetEnvironmentVariable(PortVariable) is not null;

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 5;
        const int clients = 50;
        const int requests = 300_000;
        var port = int.Parse(Environment.GetEnvironmentVariable(PortVariable) ?? throw new InvalidOperationException("BENCH_REDIS_PORT: tools/bench.sh redis-peer starts a server and sets it."), CultureInfo.InvariantCulture);
        Console.WriteLine($"## Redis beside redis-benchmark (127.0.0.1:{port}, 1 KB values, {clients} clients, {requests:N0} SETs a run; 1 warm-up + {rounds} rounds alternating; load average {LoadAverage()})");
        // Without the engine's warm-up (0.3 s of its hot path before a run's clock starts, never measured): the warm-up round
        // warmed this process's code, and the warm-up's CPU and allocations would count in each run's per-insert figures.
        var runner = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
        foreach (var pipeline in new[] { 1, 10 })
        {
            var plan = new RunPlan
            {
                Name = $"redis, pipelines of {pipeline}",
                Target = new TargetOptions
                {
                    Kind = TargetKind.Redis,
                    Operation = WriteOperation.Upsert,
                    Redis = new RedisOptions { Host = "127.0.0.1", Port = port, UseTls = false, UseAccessKey = false, KeyPrefix = "peer:" },
                },
                Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 1_024 },
                Load = new LoadOptions { Concurrency = clients, BatchSize = pipeline },
                Stop = new StopOptions { TotalDocuments = requests },
            };
            var peer = new List<(double Rate, double CpuUs)>();
            var engine = new List<(double Rate, double CpuUs, double P99Ms)>();
            await PeerAsync(pipeline);
            await EngineAsync(plan);
            for (var round = 0; round < rounds; round++)
            {
                peer.Add(await PeerAsync(pipeline));
                engine.Add(await EngineAsync(plan));
            }

            var ratio = Median([.. engine.Select(r => r.Rate)]) / Median([.. peer.Select(r => r.Rate)]);
            Console.WriteLine($"-P {pipeline}: redis-benchmark {Median([.. peer.Select(r => r.Rate)]):N0} SETs/s ({string.Join(", ", peer.Select(r => r.Rate.ToString("N0")))}), {Median([.. peer.Select(r => r.CpuUs)]):F1} µs CPU a SET; "
                + $"BenchWeb {Median([.. engine.Select(r => r.Rate)]):N0}/s ({string.Join(", ", engine.Select(r => r.Rate.ToString("N0")))}), {Median([.. engine.Select(r => r.CpuUs)]):F1} µs CPU a SET, p99 {Median([.. engine.Select(r => r.P99Ms)]):F2} ms a request; "
                + $"ratio {ratio:F2} (target ≥ {(pipeline == 1 ? "1.0" : "0.8")})");
        }

        // Each run starts on an empty server, so neither side pays for the other's keys (the engine's ids are new every run).
        async Task FlushAsync()
        {
            using var flush = Process.Start(new ProcessStartInfo("redis-cli", $"-h 127.0.0.1 -p {port} flushall") { RedirectStandardOutput = true })!;
            await flush.StandardOutput.ReadToEndAsync();
            await flush.WaitForExitAsync();
        }

        async Task<(double Rate, double CpuUs, double P99Ms)> EngineAsync(RunPlan plan)
        {
            await FlushAsync();
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var result = await runner.RunAsync(plan, host.Context);
            var spent = Process.GetCurrentProcess().TotalProcessorTime - cpu;
            if (result.Summary.TotalOk != requests || result.Status != RunStatus.Completed)
            {
                throw new InvalidOperationException($"{plan.Name}: {result.Status}, {result.Summary.TotalOk:N0} of {requests:N0} SETs landed; {result.FailureReason}");
            }

            // The whole run's inserts over its elapsed time, as redis-benchmark reports its own.
            return (result.Summary.TotalOk / result.Summary.Elapsed.TotalSeconds, spent.TotalMicroseconds / result.Summary.TotalOk, result.Summary.Latency.P99Ms ?? double.NaN);
        }

        async Task<(double Rate, double CpuUs)> PeerAsync(int pipeline)
        {
            await FlushAsync();
            var before = ChildrenCpu();
            var start = new ProcessStartInfo("redis-benchmark", $"-h 127.0.0.1 -p {port} -t set -d 1024 -c {clients} -P {pipeline} -n {requests} -q --csv") { RedirectStandardOutput = true };
            using var process = Process.Start(start)!;
            var output = await process.StandardOutput.ReadToEndAsync();
            await process.WaitForExitAsync();
            var spent = ChildrenCpu() - before;
            // --csv: "test","rps","avg_latency_ms",… and a line per test: "SET","123456.79",…
            var line = output.Split('\n').First(l => l.StartsWith("\"SET\"", StringComparison.Ordinal));
            var rate = double.Parse(line.Split(',')[1].Trim('"'), CultureInfo.InvariantCulture);
            return (rate, spent.TotalMicroseconds / requests);
        }
    }
}
