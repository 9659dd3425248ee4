using System.Diagnostics;
using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace Benchmarks;

/// <summary>4. Memory: working set after 100,000 and after N flight documents through the no-op target.</summary>
internal sealed class MemoryBenchmark(string? documentCount) : IBenchmark
{
    public string Name => "memory";

    public async Task RunAsync(BenchmarkHost host)
    {
        // The count is the second argument (tools/bench.sh memory N), 2,000,000 without one; read only when this benchmark runs.
        var total = documentCount is null ? 2_000_000 : long.Parse(documentCount, CultureInfo.InvariantCulture);
        Console.WriteLine($"## Memory (flight documents through the no-op target, closed loop of 32)");
        var baseline = 0L;
        foreach (var count in new[] { 100_000L, total })
        {
            var result = await host.RunAsync(new RunPlan
            {
                Name = "memory",
                Target = new TargetOptions { Kind = TargetKind.NoOp },
                Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
                Load = new LoadOptions { Concurrency = 32 },
                Stop = new StopOptions { TotalDocuments = count },
            });
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            using var process = Process.GetCurrentProcess();
            var workingSet = process.WorkingSet64;
            if (baseline == 0)
            {
                baseline = workingSet;
            }

            Console.WriteLine($"after {count:N0} documents ({result.Summary.AverageThroughput:N0}/s): working set {workingSet / 1048576.0:N1} MB, managed heap {GC.GetTotalMemory(false) / 1048576.0:N1} MB, growth since 100,000: {(workingSet - baseline) / 1048576.0:N1} MB");
        }
    }
}
