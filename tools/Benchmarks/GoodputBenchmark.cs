using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace Benchmarks;

/// <summary>2. Throttled goodput on the simulator: 5,000 RU/s, one partition, ~1 KB documents.</summary>
internal sealed class GoodputBenchmark : IBenchmark
{
    public string Name => "goodput";

    public async Task RunAsync(BenchmarkHost host)
    {
        Console.WriteLine("## Throttled goodput (simulator, 5,000 RU/s, 1 partition, ~1 KB documents, no indexing: 5 RU each)");
        var target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000, PhysicalPartitions = 1, Indexing = BenchEngine.Targets.IndexingMode.None } };
        var workload = new WorkloadOptions { TargetSizeBytes = 1_000 };
        var engine = await host.RunAsync(new RunPlan
        {
            Name = "engine default",
            Target = target,
            Workload = workload,
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { DurationSeconds = 30 },
        });
        Print("engine default (closed loop, 32 workers, shared back-off)", engine);
        var burst = await host.RunAsync(new RunPlan
        {
            Name = "unbounded",
            Target = target,
            Workload = workload,
            Load = new LoadOptions { Model = LoadModel.Unbounded, Throttling = new ThrottleOptions { SharedBackoff = false } },
            Stop = new StopOptions { TotalDocuments = 20_000 },
        }, shortfallExpected: true);
        Print("unbounded Task.WhenAll of 20,000 point inserts (seed-002 pattern, per-request retry-after, 9 retries)", burst);

        static void Print(string what, RunResult r)
        {
            var s = r.Summary;
            var busiest = r.Seconds.Where(second => second.IsFull).Select(second => second.RequestUnits).DefaultIfEmpty(0).Max();
            Console.WriteLine($"{what}: steady RU/s {s.SteadyState.RequestUnitsPerSecond:N0} = {s.SteadyState.RequestUnitsPerSecond / 5_000:F3} of provisioned; " +
                $"whole run {s.RequestUnitsPerSecond / 5_000:F3}; busiest full second {busiest / 5_000:F3}; throttled {s.ThrottledFraction:P2} of responses ({s.TotalThrottled:N0}); ok {s.TotalOk:N0}; " +
                $"given up {s.TotalGivenUp:N0}; errors {s.TotalErrors:N0}; p99 {s.Latency.P99Ms:F0} ms; {s.Elapsed.TotalSeconds:F1} s; {r.Status} ({r.StopReason})");
        }
    }
}
