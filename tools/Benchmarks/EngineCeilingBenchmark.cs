using System.Diagnostics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using static Benchmarks.HostLoad;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>14. The engine's ceiling: the no-op target (nothing outstanding, nothing failing), so all there is is the client. Closed loops
/// at several concurrencies (inserts/s, this process's CPU and bytes allocated per insert), open loops at rising rates (every
/// due request sent? p99 from the intended start). Alternating rounds; medians.</summary>
internal sealed class EngineCeilingBenchmark : IBenchmark
{
    public string Name => "engine-ceiling";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 3;
        const long documents = 2_000_000;
        Console.WriteLine($"## Engine ceiling (no-op target, small documents; closed loop {documents:N0} documents a run, 1 warm-up + {rounds} rounds; load average {LoadAverage()})");
        // Without the engine's warm-up (0.3 s of its hot path before a run's clock starts, never measured): the warm-up round
        // warmed this process's code, and the warm-up's CPU and allocations would count in each run's per-insert figures.
        var runner = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
        RunPlan Closed(int concurrency) => new()
        {
            Name = $"no-op closed loop of {concurrency}",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Concurrency = concurrency },
            Stop = new StopOptions { TotalDocuments = documents },
        };
        var concurrencies = new[] { 1, 8, 32, 256 };
        await runner.RunAsync(Closed(8), host.Context);
        var figures = concurrencies.ToDictionary(c => c, _ => new List<(double Rate, double CpuUs, double Bytes)>());
        for (var round = 0; round < rounds; round++)
        {
            foreach (var concurrency in concurrencies)
            {
                var cpu = Process.GetCurrentProcess().TotalProcessorTime;
                var allocated = GC.GetTotalAllocatedBytes(precise: true);
                var result = await runner.RunAsync(Closed(concurrency), host.Context);
                var spent = Process.GetCurrentProcess().TotalProcessorTime - cpu;
                var bytes = GC.GetTotalAllocatedBytes(precise: true) - allocated;
                var ok = result.Summary.TotalOk;
                figures[concurrency].Add((result.Summary.AverageThroughput, spent.TotalMicroseconds / ok, bytes / (double)ok));
            }
        }

        foreach (var (concurrency, runs) in figures)
        {
            Console.WriteLine($"closed loop of {concurrency}: {Median([.. runs.Select(r => r.Rate)]):N0} inserts/s (runs {string.Join(", ", runs.Select(r => r.Rate.ToString("N0")))}), "
                + $"{Median([.. runs.Select(r => r.CpuUs)]):F2} µs CPU and {Median([.. runs.Select(r => r.Bytes)]):N0} bytes allocated per insert (the whole process: the run's clock, health probe and summary included) "
                + "(targets: ≥ 1,000,000/s at c ≥ 8, ≤ 1 µs, ≤ 64 bytes)");
        }

        foreach (var rate in new[] { 10_000, 50_000, 200_000 })
        {
            var plan = new RunPlan
            {
                Name = $"no-op open loop {rate:N0}/s",
                Target = new TargetOptions { Kind = TargetKind.NoOp },
                Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = rate, Concurrency = 256 },
                Stop = new StopOptions { DurationSeconds = 10 },
                Thresholds = new ThresholdOptions { MaxDroppedPercent = 100 },
            };
            var runs = new List<RunSummary>();
            for (var round = 0; round < rounds; round++)
            {
                runs.Add((await runner.RunAsync(plan, host.Context)).Summary);
            }

            Console.WriteLine($"open loop {rate:N0}/s, 10 s, {rounds} runs: dropped {string.Join(", ", runs.Select(r => $"{r.TotalDropped:N0} ({r.TotalDropped * 100.0 / Math.Max(1, r.TotalOffered):F2} %)"))}; "
                + $"sent late {string.Join(", ", runs.Select(r => r.TotalSentLate.ToString("N0")))}; p99 from the intended start {string.Join(", ", runs.Select(r => $"{r.Latency.P99Ms:F2}"))} ms "
                + "(targets at 200,000/s: 0 dropped, p99 ≤ 1 ms)");
        }
    }
}
