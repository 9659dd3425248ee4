using System.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace Benchmarks;

/// <summary>13. The run's clock: on its own thread, so a target whose writes complete at once (the no-op target, 256 workers that never
/// give their threads back) cannot delay a second; and a warmed hot path, so the first second runs optimised code.</summary>
internal sealed class ClockBenchmark : IBenchmark
{
    public string Name => "clock";

    public async Task RunAsync(BenchmarkHost host)
    {
        Console.WriteLine("## The run's clock (no-op target)");
        var closed = new RunPlan
        {
            Name = "clock, closed loop of 256",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Concurrency = 256 },
            Stop = new StopOptions { DurationSeconds = 10 },
        };
        var (result, wall) = await TimedRunAsync(closed);
        var full = result.Seconds.Where(second => second.IsFull).ToList();
        Console.WriteLine($"closed loop of 256, 10 s: the run's clock {result.Summary.Elapsed.TotalSeconds:F3} s; wall-clock from the clock's start to the end of the run {wall.TotalSeconds:F3} s (target ≤ 10.1 s); "
            + $"{result.Seconds.Count} seconds, {full.Count} full, {full.Count(x => x.Ok == 0)} empty (target 0); a full second's inserts {full.Min(x => x.Ok):N0}–{full.Max(x => x.Ok):N0}; "
            + $"latest close {result.Seconds.Max(x => x.Health?.ClockLagMs ?? 0):F1} ms after its boundary; {result.Summary.AverageThroughput:N0}/s");

        var open = new RunPlan
        {
            Name = "clock, open loop 10,000/s",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10_000, Concurrency = 256 },
            Stop = new StopOptions { DurationSeconds = 5 },
        };
        var (opened, _) = await TimedRunAsync(open);
        var first = opened.Seconds[0];
        Console.WriteLine($"open loop 10,000/s, 5 s: second 0 sent {first.Issued:N0} ({first.SentLate:N0} late), dropped {first.Dropped:N0} (target 0), p99 {first.LatencyP99Ms:F2} ms; "
            + $"whole run sent {opened.Summary.TotalIssued:N0} of {opened.Summary.TotalOffered:N0}, dropped {opened.Summary.TotalDropped:N0}, sent late {opened.Summary.TotalSentLate:N0}, p99 {opened.Summary.Latency.P99Ms:F2} ms");

        async Task<(RunResult Result, TimeSpan Wall)> TimedRunAsync(RunPlan plan)
        {
            ClockWatchTarget? watched = null;
            var runner = new BenchmarkRunner(TimeProvider.System, (options, targetContext) => watched = new ClockWatchTarget(TargetRegistry.Create(options, targetContext)));
            var result = await runner.RunAsync(plan, host.Context);
            var wall = Stopwatch.GetElapsedTime(watched!.ClockStart);
            if (result.Status != RunStatus.Completed)
            {
                throw new InvalidOperationException($"{plan.Name}: {result.Status} {result.FailureReason}");
            }

            return (result, wall);
        }
    }
}
