using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Sweeps;

[UnitTest]
public class KneeDetectorTests
{
    private static readonly TargetContext NoSecrets = new(TimeProvider.System, _ => null);

    private static readonly string[] Doubling = ["1", "2", "4", "8", "16", "32", "64", "128"];

    /// <summary>Runs every step of the sweep with the engine, one after another, each on its own stepped fake clock.</summary>
    private static async Task<IReadOnlyList<SweepStepResult>> RunSweepAsync(RunPlan basePlan, SweepOptions sweep)
    {
        var results = new List<SweepStepResult>();
        foreach (var step in sweep.Steps(basePlan))
        {
            var time = SteppedClock.Create();
            var runner = new BenchmarkRunner(time);
            var result = await SteppedClock.RunAsync(time, () => runner.RunAsync(step.Plan, NoSecrets), TimeSpan.FromMinutes(1));
            results.Add(SweepStepResult.From(step, result.Status, result.Summary));
        }

        return results;
    }

    private static RunPlan SimulatorPlan(int budget, double latencyMs, int seconds = 5) => new()
    {
        Name = "knee",
        Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = budget, MedianLatencyMs = latencyMs, Indexing = IndexingMode.None } },
        Stop = new StopOptions { DurationSeconds = seconds },
    };

    // Latencies of at least 40 ms: the stepped clock moves 10 ms at a time, so a shorter latency would be mostly rounding.
    [Theory]
    [Slow]
    [InlineData(1_000, 40)]
    [InlineData(2_000, 100)]
    [InlineData(4_000, 50)]
    public async Task Find_ConcurrencySweepOnTheSimulator_RecommendsWithinOneStepOfBudgetOverChargeTimesLatency(int budget, double latencyMs)
    {
        // The charge of one insert, measured as the engine reports it.
        var probe = (await RunSweepAsync(SimulatorPlan(budget, latencyMs, 2), new SweepOptions { Values = ["1", "2"] }))[0];
        var charge = probe.RequestUnitsPerSecond!.Value / probe.Throughput;
        var saturation = budget / charge * (latencyMs / 1000);
        var sweep = new SweepOptions { Values = Doubling };

        var steps = await RunSweepAsync(SimulatorPlan(budget, latencyMs), sweep);
        var knee = Assert.Single(KneeDetector.Find(steps, sweep.Knee, sweep.Setting));

        Assert.NotNull(knee.RecommendedIndex);
        var recommended = double.Parse(knee.RecommendedValue!, System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(Math.Log2(recommended), Math.Log2(saturation) - 1, Math.Log2(saturation) + 1);
        Assert.False(knee.ClientBound);
        Assert.NotEqual(KneeLimit.None, knee.LimitedBy);
        Assert.StartsWith($"step {knee.RecommendedIndex + 1} (concurrency {knee.RecommendedValue}): highest throughput", knee.Reason, StringComparison.Ordinal);
        Assert.NotNull(knee.HeadroomPercent);
        Assert.NotNull(knee.MonthlyCost);
    }

    [Fact]
    public async Task Find_NoOpClientReachesTheCpuLimit_ReportsClientBound()
    {
        var basePlan = new RunPlan { Name = "client", Target = new TargetOptions { Kind = TargetKind.NoOp }, Stop = new StopOptions { DurationSeconds = 2 } };
        var sweep = new SweepOptions { Values = ["1", "4", "16", "64"] };
        var measured = await RunSweepAsync(basePlan, sweep);

        // On a fake clock the process's CPU over fake seconds means nothing, so the steps' CPU figures are set here: the
        // client rises to the limit at the third step while the no-op target itself never slows.
        double[] cpu = [20, 50, 91, 99];
        var steps = measured.Select((s, i) => s with { MaxClientCpuPercent = cpu[i], Throughput = 1_000 * (i + 1) }).ToList();
        var knee = Assert.Single(KneeDetector.Find(steps, sweep.Knee, sweep.Setting));

        Assert.All(measured, s => Assert.True(s.Measured));
        Assert.True(knee.ClientBound);
        Assert.Equal(KneeLimit.ClientCpu, knee.LimitedBy);
        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Contains("the client reached 91 % CPU at step 3 (concurrency 16)", knee.Reason, StringComparison.Ordinal);
        Assert.Contains("the client, not the service, is the limit", knee.Reason, StringComparison.Ordinal);
        Assert.Null(knee.MonthlyCost);
    }

    [Fact]
    public void Find_P99BeyondTheMultiple_StopsBeforeItAndSaysTheNumbers()
    {
        SweepStepResult Step(int i, double throughput, double p99) => new()
        {
            Index = i, Value = (8 << i).ToString(System.Globalization.CultureInfo.InvariantCulture), Status = RunStatus.Completed,
            Throughput = throughput, P99Ms = p99, RequestUnitsPerSecond = throughput * 6, ProvisionedRequestUnitsPerSecond = 100_000,
        };
        var steps = new[] { Step(0, 1_000, 12), Step(1, 2_000, 14), Step(2, 4_000, 20), Step(3, 9_850, 30), Step(4, 9_900, 42) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(3, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal("step 4 (concurrency 64): highest throughput, 9,850/s, before p99 42 ms at step 5 (concurrency 128) exceeded 3 × the best p99 (12 ms).", knee.Reason);
        Assert.Equal(100 - (9_850 * 6 / 1_000.0), knee.HeadroomPercent!.Value, 6);
        Assert.Equal(5_840, knee.MonthlyCost!.Value, 6);
    }

    [Fact]
    public void Find_FirstStepAlreadyThrottled_RecommendsItAndSaysSo()
    {
        var steps = new[] { 1, 2 }.Select(i => new SweepStepResult { Index = i - 1, Value = $"{i}", Status = RunStatus.Completed, Throughput = 100, P99Ms = 5, ThrottledPercent = 20 }).ToList();

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(0, knee.RecommendedIndex);
        Assert.Equal(0, knee.LimitIndex);
        Assert.Equal(KneeLimit.Throttling, knee.LimitedBy);
        Assert.StartsWith("step 1 (concurrency 1): the first step, 100/s, already crossed the rule: 20 % of requests were throttled", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_NoStepRan_RecommendsNothing()
    {
        var steps = new[] { new SweepStepResult { Index = 0, Value = "1", Status = RunStatus.Failed } };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule()));

        Assert.Null(knee.RecommendedIndex);
        Assert.Equal(KneeLimit.None, knee.LimitedBy);
    }

    [Fact]
    public void Find_TwoSeries_OneKneeEach()
    {
        var steps = new[] { "Gateway", "Direct" }.SelectMany((series, s) => Enumerable.Range(0, 3).Select(i => new SweepStepResult
        {
            Index = (s * 3) + i, Series = series, Value = $"{i + 1}", Status = RunStatus.Completed, Throughput = 100 * (i + 1), P99Ms = 10,
        })).ToList();

        var knees = KneeDetector.Find(steps, new KneeRule());

        Assert.Equal(["Gateway", "Direct"], knees.Select(k => k.Series));
        Assert.Equal([2, 5], knees.Select(k => k.RecommendedIndex));
        Assert.All(knees, k => Assert.Equal(KneeLimit.None, k.LimitedBy));
    }

    [Theory]
    [InlineData(new double[] { 100, 200, 203, 205 }, true)]
    [InlineData(new double[] { 100, 200, 203, 300 }, false)]
    [InlineData(new double[] { 100, 200, 203 }, false)]
    [InlineData(new double[] { 100, 101, 102 }, true)]
    public void ShouldStop_TwoStepsInARowWithoutGain_Stops(double[] throughputs, bool expected)
    {
        var steps = throughputs.Select((t, i) => new SweepStepResult { Index = i, Value = $"{i}", Status = RunStatus.Completed, Throughput = t }).ToList();

        Assert.Equal(expected, EarlyStop.ShouldStop(steps, new EarlyStopOptions { MinGainPercent = 5, StepsWithoutGain = 2 }));
    }
}
