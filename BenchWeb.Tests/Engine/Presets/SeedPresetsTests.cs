using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Engine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Presets;

[UnitTest]
public class SeedPresetsTests
{
    /// <summary>The ids of the seed table in the design notes, plus B3's bulk counterpart.</summary>
    private static readonly string[] SeedIds = ["G1", "G2", "G4", "G14", "G17", "L1", "L3", "L4", "L5", "J1", "J3", "B3", "B3-bulk"];

    public static TheoryData<string> Ids() => new(SeedPresets.All.Select(p => p.Id));

    [Fact]
    public void All_HoldsEverySeedOfTheDesignTable_ThenTheComparisonTablesRows()
    {
        var fromTargets = StoragePresets.All.Select(p => p.Id).ToList();

        Assert.Equal(SeedIds.Order(StringComparer.Ordinal), SeedPresets.All.Select(p => p.Id).SkipLast(fromTargets.Count).Order(StringComparer.Ordinal));
        Assert.Equal(fromTargets, SeedPresets.All.Select(p => p.Id).TakeLast(fromTargets.Count));
    }

    [Fact]
    public void All_ListsThePresetsInTheOrderThePresetsPageShows()
    {
        Assert.Equal(
            ["G1", "G2", "G4", "G14", "G17", "L1", "L3", "L4", "L5", "J1", "J3", "B3", "B3-bulk", "BL1", "BL2", "Q1", "Q2", "RD1", "RD2"],
            SeedPresets.All.Select(p => p.Id));
        Assert.Equal(
            [TargetKind.BlobStorage, TargetKind.BlobStorage, TargetKind.QueueStorage, TargetKind.QueueStorage, TargetKind.Redis, TargetKind.Redis],
            StoragePresets.All.Select(p => p.RealTarget));
    }

    [Fact]
    public void All_IdsAreUnique_IgnoringCase()
    {
        Assert.Equal(SeedPresets.All.Count, SeedPresets.All.Select(p => p.Id).Distinct(StringComparer.OrdinalIgnoreCase).Count());
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public void Preset_SaysWhatItIsAndWhatItGot(string id)
    {
        var preset = SeedPresets.Find(id)!;

        Assert.False(string.IsNullOrWhiteSpace(preset.Title));
        Assert.False(string.IsNullOrWhiteSpace(preset.Summary));
        Assert.False(string.IsNullOrWhiteSpace(preset.OriginalResult));
        Assert.StartsWith(id + ":", preset.Plan.Name, StringComparison.Ordinal);
        Assert.NotEqual(TargetKind.Simulated, preset.RealTarget);
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public void OnSimulator_EveryPreset_IsValid(string id)
    {
        var simulated = SeedPresets.OnSimulator(SeedPresets.Find(id)!.Plan);

        Assert.Empty(simulated.Validate());
        Assert.Equal(TargetKind.Simulated, simulated.Target.Kind);
        Assert.EndsWith(" (simulated)", simulated.Name, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public void RealPlan_OnlyLacksTheEndpoint_WhenItHasErrors(string id)
    {
        var preset = SeedPresets.Find(id)!;

        var errors = preset.Plan.Validate();

        // Where the user's own account or cache goes: a Cosmos DB endpoint, a Redis host.
        Assert.All(errors, e => Assert.Equal(preset.RealTarget == TargetKind.Redis ? "Target.Redis.Host" : "Target.Cosmos.Endpoint", e.Field));
    }

    [Theory]
    [MemberData(nameof(Ids))]
    public void OnSimulator_KeepsRuWorkloadLoadStopAndOperation_WithPartitionsOfAtMost10000Ru(string id)
    {
        var real = SeedPresets.Find(id)!.Plan;

        var simulated = SeedPresets.OnSimulator(real);

        var sim = simulated.Target.Simulator;
        var expectedRu = real.Target.Kind == TargetKind.CosmosSql ? real.Target.Cosmos.RequestUnits : SeedPresets.TableRequestUnits;
        Assert.Equal(expectedRu, sim.ProvisionedRequestUnits);
        Assert.NotNull(sim.PhysicalPartitions);
        Assert.True(sim.ProvisionedRequestUnits / (double)sim.PhysicalPartitions <= 10_000, $"{sim.ProvisionedRequestUnits} RU/s over {sim.PhysicalPartitions}");
        Assert.Equal(real.Workload, simulated.Workload);
        Assert.Equal(real.Load, simulated.Load);
        Assert.Equal(real.Stop, simulated.Stop);
        Assert.Equal(real.Target.Operation, simulated.Target.Operation);
    }

    [Theory]
    [InlineData("G1", 10_000, 5)]
    [InlineData("G4", 10_000, 5)]
    [InlineData("G14", 20_000, 2)]
    [InlineData("J1", 400, 1)]
    [InlineData("J3", 15_000, 2)]
    [InlineData("B3", 5_000, 1)]
    [InlineData("L1", 10_000, 1)]
    public void OnSimulator_ModelsTheSeedsContainer(string id, int requestUnits, int partitions)
    {
        var sim = SeedPresets.OnSimulator(SeedPresets.Find(id)!.Plan).Target.Simulator;

        Assert.Equal(requestUnits, sim.ProvisionedRequestUnits);
        Assert.Equal(partitions, sim.PhysicalPartitions);
    }

    [Fact]
    public void OnSimulator_TakesTheContainersIndexing_ForCosmosSql()
    {
        var plan = SeedPresets.Find("G1")!.Plan;
        plan = plan with { Target = plan.Target with { Cosmos = plan.Target.Cosmos with { Indexing = IndexingMode.None } } };

        Assert.Equal(IndexingMode.None, SeedPresets.OnSimulator(plan).Target.Simulator.Indexing);
    }

    [Fact]
    public void OnSimulator_KeepsTheMinimumOf400Ru_AndTheNameSuffixOnce()
    {
        var plan = new RunPlan
        {
            Name = "tiny",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://a/", RequestUnits = null } },
            Stop = new StopOptions { TotalDocuments = 10 },
        };

        var simulated = SeedPresets.OnSimulator(plan with { Target = plan.Target with { Cosmos = plan.Target.Cosmos with { RequestUnits = 100 } } });

        Assert.Equal(400, simulated.Target.Simulator.ProvisionedRequestUnits);
        Assert.Equal("tiny (simulated)", simulated.Name);
        Assert.Same(simulated, SeedPresets.OnSimulator(simulated));
    }

    [Fact]
    public void OnSimulator_L5_AsksForMoreThanTheSecondsBudgetInOneWave_SoItThrottles()
    {
        var plan = SeedPresets.OnSimulator(SeedPresets.Find("L5")!.Plan);
        var target = new SimulatedCosmosTarget(plan.Target.Simulator, TimeProvider.System);

        var wave = plan.Workload.Generate(plan.Load.Concurrency * plan.Load.BatchSize).Sum(target.ChargeFor);

        Assert.Equal(IndexingMode.Consistent, plan.Target.Simulator.Indexing);
        Assert.True(wave > plan.Target.Simulator.ProvisionedRequestUnits, $"a wave costs {wave:N0} RU");
    }

    [Theory]
    [InlineData("g1", "G1")]
    [InlineData("b3-BULK", "B3-bulk")]
    [InlineData("L5", "L5")]
    public void Find_IgnoresCase(string query, string expected)
    {
        Assert.Equal(expected, SeedPresets.Find(query)?.Id);
    }

    [Fact]
    public void Find_ReturnsNull_ForAnUnknownId()
    {
        Assert.Null(SeedPresets.Find("G99"));
    }

    [Fact]
    public async Task B3_OnSimulator_LandsEveryDocument()
    {
        var plan = SeedPresets.OnSimulator(SeedPresets.Find("B3")!.Plan);

        var result = await new BenchmarkRunner().RunAsync(plan, TargetContext.FromEnvironment());

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(1_000, result.Seconds.Sum(s => s.Ok));
    }
}
