using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using static Benchmarks.HostLoad;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>11. Client health: the same two plans, healthy for the client when the machine is quiet, alone and then beside two CPU hogs
/// (processes of their own, as a user's other programs are). Every full second of a run beside the hogs is a starved second
/// and should be judged client-limited; every full second of a run alone is a healthy one and should not. The open loop on the
/// no-op target never has a request outstanding (its writes complete at once), so it may drop none, hogs or not.</summary>
internal sealed class ClientHealthBenchmark : IBenchmark
{
    public string Name => "client-health";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int seconds = 20;
        Console.WriteLine($"## Client health ({seconds} s a run; alone, then beside two CPU hogs; every full second judged with the default bounds: {ClientLimits.Default.DescribeBounds()})");

        // Two light plans, which a full machine still serves (a core the moment they ask), and one that wants every core it can
        // get (the no-op closed loop), which beside the hogs gets a third of the machine: the starved client.
        var plans = new (RunPlan Plan, bool Light)[]
        {
            (new RunPlan
            {
                Name = "no-op open loop 5,000/s",
                Target = new TargetOptions { Kind = TargetKind.NoOp },
                Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 5_000, Concurrency = 64 },
                Stop = new StopOptions { DurationSeconds = seconds },
            }, true),
            (new RunPlan
            {
                Name = "simulator, 32 workers, 20 ms median latency",
                Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000_000, MedianLatencyMs = 20 } },
                Load = new LoadOptions { Concurrency = 32 },
                Stop = new StopOptions { DurationSeconds = seconds },
            }, true),
            (new RunPlan
            {
                Name = "no-op closed loop of 32",
                Target = new TargetOptions { Kind = TargetKind.NoOp },
                Load = new LoadOptions { Concurrency = 32 },
                Stop = new StopOptions { DurationSeconds = seconds },
            }, false),
        };
        var healthy = new List<SecondSnapshot>();
        var starved = new List<SecondSnapshot>();
        var served = new List<SecondSnapshot>();
        foreach (var (plan, light) in plans)
        {
            double? alone = null;
            foreach (var hogs in new[] { 0, 2 })
            {
                // A run alone measures healthy seconds only on a quiet machine: wait (at most a minute) until the host's CPU has
                // been below 15 % for two seconds in a row, as the build before it and the run before it leave it busy.
                var quiet = hogs == 0 ? await QuietHostAsync() : null;
                var load = LoadAverage() + (quiet is null ? "" : $", host CPU {quiet}");
                RunResult result;
                using (CpuHogs.Start(hogs))
                {
                    result = await host.RunAsync(plan);
                }

                var full = result.Seconds.Where(second => second.IsFull).ToList();
                var s = result.Summary;
                (hogs == 0 ? (light ? healthy : null) : light ? served : starved)?.AddRange(full);
                alone ??= s.AverageThroughput;
                Console.WriteLine($"{plan.Name}, {(hogs == 0 ? "alone" : "beside two CPU hogs")} (load average before: {load}): {full.Count(x => x.IsClientLimited)} of {full.Count} full seconds client-limited "
                    + $"({Kinds(full)}); host CPU median {Median([.. full.Select(x => x.Health?.HostCpuPercent ?? 0)]):F0} %, scheduling lag p99 median {Median([.. full.Select(x => x.Health?.SchedulingLagP99Ms ?? 0)]):F1} ms, "
                    + $"this process median {Median([.. full.Select(x => x.ClientCpuPercent)]):F0} %; {s.AverageThroughput:N0}/s"
                    + (hogs == 0 ? "" : $" ({s.AverageThroughput / alone:P0} of alone)"));
                foreach (var flagged in full.Where(x => x.IsClientLimited && light))
                {
                    var h = flagged.Health;
                    Console.WriteLine($"  flagged {(hogs == 0 ? "alone" : "beside the hogs")}: second {flagged.Index}: host CPU {h?.HostCpuPercent:F0} %, lag p50 {h?.SchedulingLagP50Ms:F1} / p99 {h?.SchedulingLagP99Ms:F1} / max {h?.SchedulingLagMaxMs:F1} ms, GC {h?.GcPauseMs:F1} ms, thread-pool queue {h?.ThreadPoolQueueMax}, this process {flagged.ClientCpuPercent:F0} %");
                }

                if (plan.Load.Model == LoadModel.OpenLoop)
                {
                    Console.WriteLine($"  open loop: offered {s.TotalOffered:N0}, sent {s.TotalIssued:N0} ({s.TotalSentLate:N0} late), dropped {s.TotalDropped:N0} (must be 0: nothing was ever outstanding), not started at the stop {s.TotalNotStarted:N0}, accounts balance: {s.AccountsBalance}");
                }
            }
        }

        Console.WriteLine($"starved seconds (the no-op closed loop beside the hogs) detected as client-limited: {starved.Count(x => x.IsClientLimited)} of {starved.Count} = {Share(starved.Count(x => x.IsClientLimited), starved.Count):P1} (target ≥ 95 %)");
        Console.WriteLine($"healthy seconds (the light plans alone) flagged client-limited: {healthy.Count(x => x.IsClientLimited)} of {healthy.Count} = {Share(healthy.Count(x => x.IsClientLimited), healthy.Count):P1} (target < 1 %)");
        Console.WriteLine($"light plans beside the hogs (a full machine that still served them: see their throughput against alone) flagged: {served.Count(x => x.IsClientLimited)} of {served.Count} = {Share(served.Count(x => x.IsClientLimited), served.Count):P1}");

        static string Kinds(List<SecondSnapshot> full)
        {
            var counts = Enum.GetValues<ClientLimitKinds>().Where(k => k != ClientLimitKinds.None)
                .Select(k => (Kind: k, Count: full.Count(x => x.Health is { } h && h.Limits.HasFlag(k))))
                .Where(c => c.Count > 0)
                .Select(c => $"{c.Kind} {c.Count}");
            return string.Join(", ", counts) is { Length: > 0 } text ? "crossed: " + text : "no bound crossed";
        }

        static double Share(int part, int whole) => whole == 0 ? 0 : part / (double)whole;
    }
}
