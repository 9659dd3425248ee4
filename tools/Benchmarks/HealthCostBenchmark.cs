using BenchEngine.Running;
using BenchEngine.Targets;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>12. Client health's cost: the engine's throughput with the health monitor on (the default) and off, on the target where the
/// engine's own cost shows most (no-op, closed loop of 32: the client is all there is), alternating rounds.</summary>
internal sealed class HealthCostBenchmark : IBenchmark
{
    public string Name => "health-cost";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 7;
        const long documents = 1_000_000;
        Console.WriteLine($"## Client health's cost (no-op target, closed loop of 32, {documents:N0} small documents a run; 1 warm-up each + {rounds} rounds, on and off alternating)");
        var plan = new RunPlan
        {
            Name = "health cost",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { TotalDocuments = documents },
        };
        var withHealth = new BenchmarkRunner();
        var without = new BenchmarkRunner { ClientHealth = null };
        await withHealth.RunAsync(plan, host.Context);
        await without.RunAsync(plan, host.Context);
        var on = new List<double>();
        var off = new List<double>();
        for (var round = 0; round < rounds; round++)
        {
            on.Add((await withHealth.RunAsync(plan, host.Context)).Summary.AverageThroughput);
            off.Add((await without.RunAsync(plan, host.Context)).Summary.AverageThroughput);
        }

        Console.WriteLine($"health on: {string.Join(", ", on.Select(v => v.ToString("N0")))}/s; off: {string.Join(", ", off.Select(v => v.ToString("N0")))}/s; ratio of medians (on ÷ off) {Median(on) / Median(off):F3} (target ≥ 0.98)");
    }
}
