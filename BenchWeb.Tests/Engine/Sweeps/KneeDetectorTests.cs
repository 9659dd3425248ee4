using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Sweeps;

[UnitTest]
public class KneeDetectorTests
{
    private static readonly TargetContext NoSecrets = new(TimeProvider.System, _ => null);

    private static readonly string[] Doubling = ["1", "2", "4", "8", "16", "32", "64", "128"];

    private static readonly ClientHealth Healthy = new() { HostCpuPercent = 40, SchedulingLagP50Ms = 0.1, SchedulingLagP99Ms = 0.3 };

    private static readonly ClientHealth Starved = new()
    {
        HostCpuPercent = 100, SchedulingLagP50Ms = 40, SchedulingLagP99Ms = 180, Limits = ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag,
    };

    /// <summary>A step's result as the engine makes it, from seeded seconds: each second lands <paramref name="okPerSecond"/>
    /// documents with a p99 of <paramref name="p99Ms"/> (or <paramref name="slowSeconds"/>' figure, when the whole second was
    /// that slow), <paramref name="throttledPerSecond"/> throttled responses, and a client starved in the
    /// <paramref name="starved"/> seconds.</summary>
    private static SweepStepResult Step(
        int index, string value, long okPerSecond, double p99Ms, int seconds = 10, IReadOnlyDictionary<int, double>? slowSeconds = null,
        IReadOnlyCollection<int>? starved = null, long throttledPerSecond = 0, double charge = 6, double? provisioned = null)
    {
        var latency = new LatencyDistribution();
        var snapshots = new List<SecondSnapshot>();
        for (var i = 0; i < seconds; i++)
        {
            double? slow = slowSeconds is not null && slowSeconds.TryGetValue(i, out var ms) ? ms : null;
            var p99 = slow ?? p99Ms;
            for (var n = 0; n < okPerSecond; n++)
            {
                // A slow second is slow throughout (a stall); an ordinary one has 2 % of its operations at its p99.
                latency.Record(TimeSpan.FromMilliseconds(slow ?? (n < okPerSecond * 0.02 ? p99 : p99 / 3)));
            }

            snapshots.Add(new SecondSnapshot
            {
                Index = i,
                Elapsed = TimeSpan.FromSeconds(i + 1),
                Duration = TimeSpan.FromSeconds(1),
                Ok = okPerSecond,
                OkRequests = okPerSecond,
                Issued = okPerSecond + throttledPerSecond,
                Throttled = throttledPerSecond,
                RequestUnits = okPerSecond * charge,
                LatencyP50Ms = p99 / 3,
                LatencyP99Ms = p99,
                ClientCpuPercent = 22,
                Health = starved?.Contains(i) == true ? Starved : Healthy,
            });
        }

        var summary = SummaryCalculator.Calculate(snapshots, latency, provisionedRuPerSecond: provisioned);
        return SweepStepResult.From(new SweepStep(index, null, value, new RunPlan()), RunStatus.Completed, summary, snapshots);
    }

    private static RunPlan SimulatorPlan(int budget, double latencyMs, int seconds) => new()
    {
        Name = "knee",
        Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = budget, MedianLatencyMs = latencyMs, Indexing = IndexingMode.None } },
        Load = new LoadOptions { Concurrency = 1 },
        Stop = new StopOptions { DurationSeconds = seconds },
    };

    // The steps are the simulator's closed loop as Little's law has it (throughput = concurrency ÷ latency up to the budget
    // ÷ the charge; past it, throttled attempts and p99s that wait for the next second's budget), seeded rather than measured
    // so that a busy machine, which stretches a run's latencies, cannot move the knee. The charge is the simulator's own.
    [Theory]
    [InlineData(1_000, 40)]
    [InlineData(2_000, 100)]
    [InlineData(4_000, 50)]
    public async Task Find_ConcurrencySweepOnTheSimulatorsModel_RecommendsWithinOneStepOfBudgetOverChargeTimesLatency(int budget, double latencyMs)
    {
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time) { ClientHealth = null };
        var probe = await SteppedClock.RunAsync(time, () => runner.RunAsync(SimulatorPlan(budget, latencyMs, 2), NoSecrets), TimeSpan.FromMinutes(1));
        var charge = probe.Summary.RequestUnitsPerInsert!.Value;
        var capacity = budget / charge;
        var saturation = capacity * (latencyMs / 1000);
        var sweep = new SweepOptions { Values = Doubling };
        var steps = Doubling.Select((v, i) =>
        {
            var offered = int.Parse(v, CultureInfo.InvariantCulture) / (latencyMs / 1000);
            return offered <= capacity
                ? Step(i, v, (long)offered, latencyMs * 2, charge: charge, provisioned: budget)
                : Step(i, v, (long)capacity, latencyMs + 500, throttledPerSecond: (long)(offered - capacity), charge: charge, provisioned: budget);
        }).ToList();

        var knee = Assert.Single(KneeDetector.Find(steps, sweep.Knee, sweep.Setting));

        var recommended = double.Parse(knee.RecommendedValue!, CultureInfo.InvariantCulture);
        Assert.InRange(Math.Log2(recommended), Math.Log2(saturation) - 1, Math.Log2(saturation) + 1);
        Assert.False(knee.ClientBound);
        Assert.Equal(KneeLimit.Throttling, knee.LimitedBy);
        Assert.StartsWith($"step {knee.RecommendedIndex + 1} (concurrency {knee.RecommendedValue}): highest throughput", knee.Reason, StringComparison.Ordinal);
        Assert.Contains($"confirmed by step {knee.LimitIndex + 2}", knee.Reason, StringComparison.Ordinal);
        Assert.Null(KneeDetector.NextReRun(steps, sweep.Knee, seriesEnded: true, sweep.Setting));
        Assert.NotNull(knee.HeadroomPercent);
        Assert.NotNull(knee.MonthlyCost);
    }

    [Fact]
    public void Find_ClientStarvedAtAStep_DoesNotBlameTheServiceAndSaysWhy()
    {
        // Step 3's client was starved for 8 of its 10 seconds: its p99 and throughput are the client's. The steps around it
        // are healthy, so the service was never the limit.
        var steps = new[]
        {
            Step(0, "1", 200, 10), Step(1, "2", 400, 10), Step(2, "4", 90, 900, starved: [1, 2, 3, 4, 5, 6, 7, 8]),
            Step(3, "8", 1_600, 11), Step(4, "16", 3_200, 12),
        };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.True(steps[2].ClientLimited);
        Assert.Equal(8, steps[2].ClientLimitedSeconds);
        Assert.Equal(4, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.None, knee.LimitedBy);
        Assert.False(knee.ClientBound);
        Assert.Contains("Not judged, the client being the limit: step 3 (concurrency 4), seconds 1–8: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process 22 %", knee.Reason, StringComparison.Ordinal);
        var note = Assert.Single(knee.Notes);
        Assert.Equal(2, note.Index);
        Assert.True(note.ClientLimited);
        Assert.StartsWith("client-limited: seconds 1–8: the client was starved", note.Text, StringComparison.Ordinal);
        Assert.Null(KneeDetector.NextReRun(steps, new KneeRule(), seriesEnded: true));
    }

    [Fact]
    public void Find_ClientLimitedFromAStepOn_NamesTheClientAsTheLimitWithItsReason()
    {
        // The client was starved from the third step on: the service's limit may lie beyond.
        var steps = new[] { Step(0, "1", 1_000, 5), Step(1, "4", 2_000, 5), Step(2, "16", 2_100, 40, starved: [.. Enumerable.Range(0, 10)]), Step(3, "64", 2_050, 90, starved: [.. Enumerable.Range(0, 10)]) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.ClientCpu, knee.LimitedBy);
        Assert.True(knee.ClientBound);
        Assert.Equal(2, knee.LimitIndex);
        Assert.Contains("before the client, not the service, was the limit at step 3 (concurrency 16) (seconds 0–9: the client was starved: scheduling lag p99 180 ms", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_EveryStepClientLimited_NamesThisClientAsTheLimitAndJudgesNoP99()
    {
        // A host busy throughout: every second of every step starved. The p99s climb with the starvation, not the service.
        var all = Enumerable.Range(0, 10).ToList();
        var steps = new[] { Step(0, "1", 100, 10, starved: all), Step(1, "2", 180, 60, starved: all), Step(2, "4", 150, 300, starved: all) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.ClientCpu, knee.LimitedBy);
        Assert.True(knee.ClientBound);
        Assert.StartsWith("step 2 (concurrency 2): highest throughput, 180/s, but every step was client-limited (seconds 0–9: the client was starved", knee.Reason, StringComparison.Ordinal);
        Assert.Null(KneeDetector.NextReRun(steps, new KneeRule(), seriesEnded: true));
        Assert.Equal(3, knee.Notes.Count(n => n.ClientLimited));
    }

    [Fact]
    public void Find_OneSlowSecond_DoesNotTripTheRule_BecauseTheStepIsJudgedOnItsSteadyWindow()
    {
        // Step 2 had one second in which every operation took 400 ms: its run's p99 is that second's; its steady window's
        // (the median of its seconds' p99s) is not.
        var steps = new[] { Step(0, "2", 400, 10), Step(1, "4", 800, 10, slowSeconds: new Dictionary<int, double> { [5] = 400 }), Step(2, "8", 1_600, 11) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.True(steps[1].P99Ms > 3 * 10);
        Assert.Equal(10, steps[1].SteadyP99Ms!.Value, 1);
        Assert.Equal(KneeLimit.None, knee.LimitedBy);
        Assert.Equal(2, knee.RecommendedIndex);
        Assert.Null(KneeDetector.NextReRun(steps, new KneeRule(), seriesEnded: true));

        // Judged on the run's p99 alone, the same step would have crossed.
        var runP99Only = steps.Select(s => s with { SteadyP99Ms = null }).ToList();
        Assert.NotNull(KneeDetector.NextReRun(runP99Only, new KneeRule(), seriesEnded: true));
    }

    [Fact]
    public void Find_CrossingConfirmedByTheNextStep_IsTheLimitWithoutARerun()
    {
        var steps = new[] { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 300, 40), Step(3, "8", 310, 80) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Null(KneeDetector.NextReRun(steps, new KneeRule(), seriesEnded: true));
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal(2, knee.LimitIndex);
        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Equal("step 2 (concurrency 2): highest throughput, 200/s, before p99 40 ms at step 3 (concurrency 4) exceeded 3 × the best p99 (10 ms), confirmed by step 4 (concurrency 8).", knee.Reason);
    }

    [Fact]
    public void NextReRun_CrossingTheNextStepDoesNotConfirm_ReRunsItAndJudgesOnTheReRun()
    {
        var rule = new KneeRule();
        var steps = new List<SweepStepResult> { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 300, 40) };

        // The next step has not run yet: it may confirm.
        Assert.Null(KneeDetector.NextReRun(steps, rule, seriesEnded: false, "Load.Concurrency"));
        steps.Add(Step(3, "8", 500, 12));
        var reRun = KneeDetector.NextReRun(steps, rule, seriesEnded: false, "Load.Concurrency");

        Assert.Equal(new ReRunRequest(2, "p99 rose past the rule at this step only"), reRun);
        steps.Add(Step(2, "4", 420, 11) with { IsReRun = true, ReRunReason = reRun!.Reason });
        Assert.Null(KneeDetector.NextReRun(steps, rule, seriesEnded: true, "Load.Concurrency"));
        var knee = Assert.Single(KneeDetector.Find(steps, rule, "Load.Concurrency"));

        Assert.Equal(KneeLimit.None, knee.LimitedBy);
        Assert.Equal(3, knee.RecommendedIndex);
        var note = Assert.Single(knee.Notes);
        Assert.Equal((2, true), (note.Index, note.ReRun));
        var both = steps[2].SteadySecondP99sMs!.Count + steps[4].SteadySecondP99sMs!.Count;
        Assert.Equal($"re-run: p99 rose past the rule at this step only; judged on both runs' {both} steady seconds together, the re-run did not confirm it", note.Text);
        Assert.Equal([0, 1, 2, 2, 3], knee.Steps.Select(s => s.Index));
        Assert.Equal(420, KneeDetector.Judged(knee.Steps)[2].Throughput);
    }

    [Fact]
    public void NextReRun_LastStepCrosses_ReRunsItOnceAndAConfirmingReRunMakesItTheLimit()
    {
        var rule = new KneeRule();
        var steps = new List<SweepStepResult> { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 210, 50) };

        var reRun = KneeDetector.NextReRun(steps, rule, seriesEnded: true);

        Assert.Equal(new ReRunRequest(2, "p99 rose past the rule at the last step"), reRun);
        steps.Add(Step(2, "4", 205, 55) with { IsReRun = true, ReRunReason = reRun!.Reason });
        Assert.Null(KneeDetector.NextReRun(steps, rule, seriesEnded: true));
        var knee = Assert.Single(KneeDetector.Find(steps, rule, "Load.Concurrency"));
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal(1, knee.RecommendedIndex);
        Assert.EndsWith("exceeded 3 × the best p99 (10 ms), confirmed by a re-run of that step.", knee.Reason, StringComparison.Ordinal);
        var both = steps[2].SteadySecondP99sMs!.Count + steps[3].SteadySecondP99sMs!.Count;
        Assert.Contains(knee.Notes, n => n.Text == $"re-run: p99 rose past the rule at the last step; judged on both runs' {both} steady seconds together, the re-run confirmed it");
        Assert.Contains($"p99 50 ms (both runs' {both} seconds) at step 3 (concurrency 4) exceeded", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_P99AboveTheBoundWithinItsOwnSpread_IsNotACrossing_AndSaysSo()
    {
        // Step 3's median per-second p99 (36 ms) is above 3 × 10 ms, but 4 of its 10 seconds were under the bound: another
        // run of the step could fall either side (the sweeps beside CPU hogs: 95–125 ms against a bound of 120 ms).
        var border = new Dictionary<int, double> { [0] = 25, [2] = 26, [4] = 27, [6] = 28 };
        var steps = new[] { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 300, 36, slowSeconds: border), Step(3, "8", 310, 90) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(36, steps[2].SteadyP99Ms!.Value, 1);
        Assert.True(steps[2].P99Spread!.Value.Low <= 30);
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal(3, knee.LimitIndex);
        Assert.Equal(2, knee.RecommendedIndex);
        var note = Assert.Single(knee.Notes, n => n.Index == 2);
        Assert.StartsWith("p99 36 ms is above 3 × the best p99 (30 ms), but within the spread of its seconds' p99s (2", note.Text, StringComparison.Ordinal);
        Assert.EndsWith("90 % confidence): another run could fall either side, so it is not counted as crossing the rule", note.Text, StringComparison.Ordinal);

        // The same median with every second above the bound crosses.
        var clear = new[] { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 300, 36), Step(3, "8", 310, 90) };
        Assert.Equal(2, Assert.Single(KneeDetector.Find(clear, new KneeRule(), "Load.Concurrency")).LimitIndex);
    }

    [Fact]
    public void Find_StepBelowThePlateauWithinItsOwnSpread_IsOnThePlateau_AndSaysWhy()
    {
        // Step 4 ran 3,657/s on average against a floor of 90 % × 4,077/s = 3,669/s, with seconds up to 3,900/s.
        static SweepStepResult Seeded(int i, string value, double throughput, double[]? seconds = null) => new()
        {
            Index = i, Value = value, Status = RunStatus.Completed, Throughput = throughput, SteadyThroughput = throughput, P99Ms = 10, SteadyP99Ms = 10,
            SteadySecondP99sMs = [10, 10, 10, 10, 10], SteadySecondThroughputs = seconds ?? [throughput, throughput, throughput, throughput, throughput],
        };
        var spread = new double[] { 3_400, 3_600, 3_657, 3_700, 3_900 };
        var steps = new[] { Seeded(0, "4", 900), Seeded(1, "8", 1_800), Seeded(2, "16", 3_657, spread), Seeded(3, "32", 4_077) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(2, knee.RecommendedIndex);
        Assert.Equal(
            "step 3 (concurrency 16): 3,657/s, the first step within 10 % of the highest throughput (4,077/s at step 4 (concurrency 32)): below 3,669/s, but within the spread of its seconds' throughputs (3,400/s–3,900/s, 90 % confidence), so another run could reach it; no step exceeded 3 × the best p99 or 1 % throttled within the values, so the limit may lie beyond them.",
            knee.Reason);

        // Steady seconds that never reach the floor keep it off the plateau.
        var below = steps.Select(s => s.Index == 2 ? Seeded(2, "16", 3_657) : s).ToList();
        Assert.Equal(3, Assert.Single(KneeDetector.Find(below, new KneeRule(), "Load.Concurrency")).RecommendedIndex);
    }

    [Fact]
    public void Judged_AReRun_IsPooledWithItsFirstRun_SoItAddsEvidenceInsteadOfReplacingIt()
    {
        // The re-run alone: 5 seconds at 45 ms and 3 at 10 ms (median 45 ms, but its spread reaches 10 ms). With the first
        // run's 50 ms seconds the pooled median and its whole spread lie above the bound: confirmed.
        var rule = new KneeRule();
        var reRunP99s = new Dictionary<int, double> { [1] = 10, [3] = 10, [5] = 10 };
        var steps = new List<SweepStepResult> { Step(0, "1", 100, 10), Step(1, "2", 200, 11), Step(2, "4", 210, 50) };
        var reRun = Step(2, "4", 205, 45, slowSeconds: reRunP99s) with { IsReRun = true, ReRunReason = "p99 rose past the rule at the last step" };
        steps.Add(reRun);

        var judged = KneeDetector.Judged(steps)[2];
        var knee = Assert.Single(KneeDetector.Find(steps, rule, "Load.Concurrency"));

        Assert.True(judged.IsReRun);
        Assert.Equal(steps[2].SteadySecondP99sMs!.Count + reRun.SteadySecondP99sMs!.Count, judged.PooledSeconds);
        Assert.Equal([.. steps[2].SteadySecondP99sMs!, .. reRun.SteadySecondP99sMs!], judged.SteadySecondP99sMs);
        Assert.Equal((steps[2].SteadySecondThroughputs!.Sum() + reRun.SteadySecondThroughputs!.Sum()) / judged.PooledSeconds!.Value, judged.SteadyThroughput!.Value, 6);
        Assert.True(reRun.P99Spread!.Value.Low <= 30, "the re-run alone would not confirm");
        Assert.True(judged.P99Spread!.Value.Low > 30);
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal(1, knee.RecommendedIndex);

        // A re-run whose seconds were not kept (stored before they were) is judged alone, as then.
        var stored = reRun with { SteadySecondP99sMs = null };
        Assert.Same(stored, SweepStepResult.Pooled(steps[2], stored));
    }

    [Fact]
    public void Find_CrossingNeverReRun_CountsButSaysItWasNotConfirmed()
    {
        SweepStepResult Seeded(int i, double throughput, double p99) => new()
        {
            Index = i, Value = (8 << i).ToString(CultureInfo.InvariantCulture), Status = RunStatus.Completed,
            Throughput = throughput, P99Ms = p99, RequestUnitsPerSecond = throughput * 6, ProvisionedRequestUnitsPerSecond = 100_000,
        };
        var steps = new[] { Seeded(0, 1_000, 12), Seeded(1, 2_000, 14), Seeded(2, 4_000, 20), Seeded(3, 9_850, 30), Seeded(4, 9_900, 42) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(3, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.P99, knee.LimitedBy);
        Assert.Equal("step 4 (concurrency 64): highest throughput, 9,850/s, before p99 42 ms at step 5 (concurrency 128) exceeded 3 × the best p99 (12 ms) (not confirmed: the sweep ended before a re-run).", knee.Reason);
        Assert.Equal(100 - (9_850 * 6 / 1_000.0), knee.HeadroomPercent!.Value, 6);
        Assert.Equal(5_840, knee.MonthlyCost!.Value, 6);
    }

    [Fact]
    public void Find_LastStepSpentTheProvisionedRequestUnits_NamesTheBudgetAsTheLimit()
    {
        // The simulator's 10,000 RU/s at 6 RU an insert: concurrency 16 lands 1,666/s, all of the budget, and is throttled
        // a little (0.6 %, under the rule's 1 %); its p99 stays under 3 × the best. No step crossed the rule, yet higher
        // values cannot go faster.
        var steps = new[]
        {
            Step(0, "1", 200, 5, provisioned: 10_000), Step(1, "4", 800, 5, provisioned: 10_000),
            Step(2, "16", 1_666, 9, throttledPerSecond: 10, provisioned: 10_000),
        };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(2, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.ProvisionedThroughput, knee.LimitedBy);
        Assert.Equal(2, knee.LimitIndex);
        Assert.False(knee.ClientBound);
        Assert.Equal(0.04, knee.HeadroomPercent!.Value, 6);
        Assert.Equal(
            "step 3 (concurrency 16): highest throughput, 1,666/s; its RU/s reached the provisioned 10,000 RU/s (0.04 % headroom): the service's budget is the limit, so higher values buy nothing without more RU/s.",
            knee.Reason);
    }

    [Fact]
    public void Find_StepAfterThePlateausFirstSpentTheProvisionedRequestUnits_NamesThatStepAndTheBudget()
    {
        // Concurrency 8 is within 10 % of 16's throughput and recommended; 16 spent 97 % of the budget.
        var steps = new[]
        {
            Step(0, "4", 800, 5, provisioned: 10_000), Step(1, "8", 1_550, 6, provisioned: 10_000), Step(2, "16", 1_620, 8, provisioned: 10_000),
        };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.ProvisionedThroughput, knee.LimitedBy);
        Assert.Equal(2, knee.LimitIndex);
        Assert.EndsWith(
            "; at step 3 (concurrency 16) the RU/s reached the provisioned 10,000 RU/s (2.8 % headroom): the service's budget is the limit, so higher values buy nothing without more RU/s.",
            knee.Reason,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Find_StepThatSpentTheBudgetOverItsSteadySeconds_JudgesItsHeadroomOnThemAsItsThroughput()
    {
        // Step 2 warmed up: over its whole run it used 8,400 RU/s (16 % headroom), over its steady seconds, where the knee
        // judges its 1,660/s, 9,649 RU/s (3.51 %): the budget, not the values, was the limit.
        SweepStepResult Judged(int index, string value, double run, double steady, double runRu, double steadyRu) => new()
        {
            Index = index, Value = value, Status = RunStatus.Completed, Throughput = run, AverageThroughput = run, SteadyThroughput = steady,
            P99Ms = 5, SteadyP99Ms = 5, RequestUnitsPerSecond = runRu, SteadyRequestUnitsPerSecond = steadyRu, ProvisionedRequestUnitsPerSecond = 10_000,
        };
        var steps = new[] { Judged(0, "1", 180, 200, 1_080, 1_200), Judged(1, "4", 1_400, 1_660, 8_400, 9_649) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(1, knee.RecommendedIndex);
        Assert.Equal(KneeLimit.ProvisionedThroughput, knee.LimitedBy);
        Assert.Equal(3.51, knee.HeadroomPercent!.Value, 6);
        Assert.Equal(1_660, knee.Throughput);
        Assert.Equal(
            "step 2 (concurrency 4): highest throughput, 1,660/s; its RU/s reached the provisioned 10,000 RU/s (3.51 % headroom): the service's budget is the limit, so higher values buy nothing without more RU/s.",
            knee.Reason);
        Assert.Equal("3.51 %", KneeResult.Headroom(knee.HeadroomPercent.Value));
    }

    /// <summary>A step run of 10 s whose first 2 s warmed up: 5,387 documents, 538.7/s on average (32,320 RU, 3,232 RU/s), 628/s
    /// over its steady seconds 2–9 (3,768 RU/s there), 606/s the mean of its full seconds.</summary>
    internal static RunSummary WarmedUp() => new()
    {
        Elapsed = TimeSpan.FromSeconds(10),
        TotalOk = 5_387,
        AverageThroughput = 538.7,
        MeanPerSecondThroughput = 606,
        TotalRequestUnits = 32_320,
        RequestUnitsPerSecond = 3_232,
        ProvisionedRequestUnitsPerSecond = 4_000,
        SteadyState = new SteadyStateWindow { FirstSecond = 2, LastSecond = 9, MeanThroughput = 628, RequestUnitsPerSecond = 3_768 },
    };

    [Fact]
    public void From_AStepThatWarmedUp_KeepsItsAverageAndItsSteadyRequestUnitsApart()
    {
        var result = SweepStepResult.From(new SweepStep(0, null, "4", new RunPlan()), RunStatus.Completed, WarmedUp());

        Assert.Equal((538.7, 3_232d), (result.AverageThroughput!.Value, result.RequestUnitsPerSecond!.Value));
        Assert.Equal((628, 3_768d), (result.SteadyThroughput!.Value, result.SteadyRequestUnitsPerSecond!.Value));
        Assert.Equal(3_768, result.JudgedRequestUnitsPerSecond);
    }

    [Fact]
    public void Find_HeadroomLeftAtEveryStep_SaysTheLimitMayLieBeyondTheValues()
    {
        var steps = new[] { Step(0, "1", 200, 5, provisioned: 10_000), Step(1, "4", 800, 5, provisioned: 10_000), Step(2, "16", 1_500, 9, provisioned: 10_000) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(KneeLimit.None, knee.LimitedBy);
        Assert.Null(knee.LimitIndex);
        Assert.Equal(10, knee.HeadroomPercent!.Value, 6);
        Assert.EndsWith("so the limit may lie beyond them.", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_FirstStepAlreadyThrottledAndConfirmed_RecommendsItAndSaysSo()
    {
        var steps = new[] { 1, 2 }.Select(i => new SweepStepResult { Index = i - 1, Value = $"{i}", Status = RunStatus.Completed, Throughput = 100, P99Ms = 5, ThrottledPercent = 20 }).ToList();

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal(0, knee.RecommendedIndex);
        Assert.Equal(0, knee.LimitIndex);
        Assert.Equal(KneeLimit.Throttling, knee.LimitedBy);
        Assert.StartsWith("step 1 (concurrency 1): the first step, 100/s, already crossed the rule: 20 % of requests were throttled", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_ThrottledStepWhoseClientWasLimited_StillCountsTheServicesThrottles()
    {
        var steps = new[] { Step(0, "1", 100, 10), Step(1, "2", 200, 10, throttledPerSecond: 20, starved: [.. Enumerable.Range(0, 10)]), Step(2, "4", 200, 10, throttledPerSecond: 40) };

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule()));

        Assert.Equal(KneeLimit.Throttling, knee.LimitedBy);
        Assert.Equal(1, knee.LimitIndex);
        Assert.Equal(0, knee.RecommendedIndex);
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

    [Fact]
    public void ShouldStop_ClientLimitedStepsWithoutGain_DoNotStopTheSeries()
    {
        var steps = new[] { Step(0, "1", 100, 10), Step(1, "2", 200, 10), Step(2, "4", 50, 10, starved: [.. Enumerable.Range(0, 10)]), Step(3, "8", 60, 10, starved: [.. Enumerable.Range(0, 10)]) };

        Assert.False(EarlyStop.ShouldStop(steps, new EarlyStopOptions { MinGainPercent = 5, StepsWithoutGain = 2 }));
    }

    [Fact]
    public void Validate_OldClientCpuSetting_IsRefusedByName()
    {
        var sweep = new SweepOptions { Values = ["1", "2"], Knee = new KneeRule { ClientCpuPercent = 85 } };

        var error = Assert.Single(sweep.Validate(new RunPlan { Name = "p" }));

        Assert.Equal("Sweep.Knee.ClientCpuPercent", error.Field);
        Assert.Contains("client limits", error.Message, StringComparison.Ordinal);
    }

    // A plateau's highest figure is chance: two sweeps of one account differ there by a few percent (a busy machine's burst
    // after a stall, a second's boundary, a client beside other busy processes), and the knee must not follow it.
    [Theory]
    [InlineData(new long[] { 100, 200, 400, 800, 1_600, 1_650, 1_640 })]
    [InlineData(new long[] { 100, 200, 400, 800, 1_600, 1_630, 1_680 })]
    [InlineData(new long[] { 100, 200, 400, 800, 1_660, 1_610, 1_620 })]
    [InlineData(new long[] { 100, 200, 400, 800, 1_530, 1_680, 1_640 })]
    public void Find_APlateauOfThroughput_RecommendsItsFirstStepWhicheverStepWasHighest(long[] throughputs)
    {
        var steps = throughputs.Select((t, i) => Step(i, Doubling[i], t, 10)).ToList();

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule(), "Load.Concurrency"));

        Assert.Equal("16", knee.RecommendedValue);
        var highest = throughputs.Max();
        Assert.StartsWith(
            highest == throughputs[4] ? "step 5 (concurrency 16): highest throughput" : $"step 5 (concurrency 16): {throughputs[4]:N0}/s, the first step within 10 % of the highest throughput ({highest:N0}/s at step ",
            knee.Reason,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Find_PlateauOfZero_RecommendsTheHighestStep()
    {
        var steps = new long[] { 100, 200, 400, 800, 1_600, 1_650, 1_640 }.Select((t, i) => Step(i, Doubling[i], t, 10)).ToList();

        var knee = Assert.Single(KneeDetector.Find(steps, new KneeRule { PlateauPercent = 0 }, "Load.Concurrency"));

        Assert.Equal("32", knee.RecommendedValue);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(51)]
    [InlineData(double.NaN)]
    public void Validate_PlateauOutsideZeroToFifty_IsRefusedByName(double plateau)
    {
        var sweep = new SweepOptions { Values = ["1", "2"], Knee = new KneeRule { PlateauPercent = plateau } };

        var error = Assert.Single(sweep.Validate(new RunPlan { Name = "p" }));

        Assert.Equal("Sweep.Knee.PlateauPercent", error.Field);
    }
}
