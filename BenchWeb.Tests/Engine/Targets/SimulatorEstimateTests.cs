using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Engine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Targets;

[UnitTest]
public sealed class SimulatorEstimateTests
{
    private static readonly TargetContext NoSecrets = new(TimeProvider.System, _ => null);

    private static RunPlan Simulated(int requestUnits, LoadOptions load, IndexingMode indexing = IndexingMode.Consistent, WorkloadOptions? workload = null) => new()
    {
        Name = "estimate",
        Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = requestUnits, Indexing = indexing } },
        Workload = workload ?? new WorkloadOptions(),
        Load = load,
        Stop = new StopOptions { TotalDocuments = 10_000 },
    };

    [Theory]
    [InlineData("G1")]
    [InlineData("L5")]
    [InlineData("J3")]
    [InlineData("BL1")]
    public void Of_ChargesADocument_WhatTheSimulatorChargesForTheWorkloadsDocuments(string id)
    {
        var plan = SeedPresets.OnSimulator(SeedPresets.Find(id)!.Plan);
        var target = new SimulatedCosmosTarget(plan.Target.Simulator, TimeProvider.System);

        var charged = plan.Workload.Generate(200).Average(target.ChargeFor);

        Assert.Equal(charged, SimulatorEstimate.Of(plan)!.RequestUnitsPerDocument, 6);
    }

    [Fact]
    public void Of_ManyWorkers_AreBoundByTheBudget_ProvisionedRuOverRuPerDocument()
    {
        // ~150 B small records, no indexing: 5 RU each, so 1,000 RU/s take 200 a second however many workers ask.
        var estimate = SimulatorEstimate.Of(Simulated(1_000, new LoadOptions { Concurrency = 32 }, IndexingMode.None))!;

        Assert.Equal(5, estimate.RequestUnitsPerDocument, 9);
        Assert.Equal(200, estimate.DocumentsPerSecond, 9);
        Assert.True(estimate.BudgetBound);
    }

    [Fact]
    public void Of_OneWorker_IsBoundByTheModelsMeanLatency()
    {
        // The median of 5 ms with a lognormal spread of 0.35 has a mean of 5 × e^(0.35²/2) ≈ 5.31 ms.
        var estimate = SimulatorEstimate.Of(Simulated(10_000, new LoadOptions { Concurrency = 1 }))!;

        Assert.Equal(1 / (0.005 * Math.Exp(0.35 * 0.35 / 2)), estimate.DocumentsPerSecond, 9);
        Assert.InRange(estimate.DocumentsPerSecond, 188, 189);
        Assert.False(estimate.BudgetBound);
    }

    [Fact]
    public void Of_Waves_WaitForTheSlowestOfTheirRequests()
    {
        var closed = SimulatorEstimate.Of(Simulated(1_000_000, new LoadOptions { Concurrency = 10 }))!;
        var waves = SimulatorEstimate.Of(Simulated(1_000_000, new LoadOptions { Model = LoadModel.Waves, Concurrency = 10 }))!;

        Assert.Equal(10 / (0.005 * SimulatorEstimate.SlowestOf(10)), waves.DocumentsPerSecond, 9);
        Assert.True(waves.DocumentsPerSecond < closed.DocumentsPerSecond * 0.7, $"waves {waves.DocumentsPerSecond:N0}/s, closed loop {closed.DocumentsPerSecond:N0}/s");
    }

    [Fact]
    public void Of_OpenLoop_IsItsOwnRate_WhenTheBudgetAllowsIt()
    {
        var estimate = SimulatorEstimate.Of(Simulated(400, new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10, Concurrency = 10 }))!;

        Assert.Equal(10, estimate.DocumentsPerSecond, 9);
        Assert.False(estimate.BudgetBound);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    [InlineData(100)]
    public void SlowestOf_IsWhatTheSimulatorsOwnLatencyDrawsGive(int count)
    {
        // The model's latency generator, seeded: the mean of the slowest of each group of draws.
        var random = new Random(7);
        const int Groups = 20_000;
        double total = 0;
        for (var group = 0; group < Groups; group++)
        {
            var slowest = 0.0;
            for (var i = 0; i < count; i++)
            {
                slowest = Math.Max(slowest, SimulatedCosmosTarget.LatencyFactor(random));
            }

            total += slowest;
        }

        Assert.Equal(total / Groups, SimulatorEstimate.SlowestOf(count), 0.01 * SimulatorEstimate.SlowestOf(count));
    }

    [Fact]
    public void Of_ARequestCostlierThanAPartitionsBudget_LandsNothing()
    {
        // 100 padded flights with every property indexed cost ~1,900 RU: more than 400 RU/s ever grant at once.
        var flights = new WorkloadOptions { Shape = DocumentShape.Flight, TargetSizeBytes = 1_725 };

        var estimate = SimulatorEstimate.Of(Simulated(400, new LoadOptions { Concurrency = 1, BatchSize = 100 }, workload: flights))!;

        Assert.Equal(0, estimate.DocumentsPerSecond);
        Assert.True(estimate.BudgetBound);
    }

    [Fact]
    public void Of_IsTheSameEveryTime_AndNeedsTheSimulatedTwin()
    {
        var plan = SeedPresets.OnSimulator(SeedPresets.Find("J3")!.Plan);

        Assert.Equal(SimulatorEstimate.Of(plan), SimulatorEstimate.Of(plan));
        Assert.Throws<ArgumentException>(() => SimulatorEstimate.Of(SeedPresets.Find("J3")!.Plan));
        Assert.Null(SimulatorEstimate.Of(plan with { Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = "flights.csv" } }));
    }

    [Fact]
    public async Task Of_BudgetBound_IsTheRateTheSimulatorGives_OnAClockThatOnlyTheRunMoves()
    {
        var plan = Simulated(1_000, new LoadOptions { Concurrency = 32 }, IndexingMode.None) with { Stop = new StopOptions { DurationSeconds = 6 } };
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time);

        var result = await SteppedClock.RunAsync(time, () => runner.RunAsync(plan, NoSecrets), TimeSpan.FromMinutes(1));

        // The budget's windows and the run's seconds start together, so every second but a partial last one is spent.
        var estimate = SimulatorEstimate.Of(plan)!.DocumentsPerSecond;
        Assert.InRange(result.Summary.TotalOk / result.Summary.Elapsed.TotalSeconds, estimate * 0.85, estimate * 1.05);
    }
}
