using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Sweeps;

/// <summary>The built-in sweeps: valid against their real service and on the simulator, step by step.</summary>
[UnitTest]
public sealed class SweepPresetTests
{
    public static TheoryData<string> Ids() => [.. SweepPresets.All.Select(p => p.Id)];

    [Theory]
    [MemberData(nameof(Ids))]
    public void EveryStep_IsAValidPlan_OnItsServiceAndOnTheSimulator(string id)
    {
        var preset = SweepPresets.Find(id)!;

        // Against the service only the account's endpoint is missing: the user's own, given before running there (a problem
        // every step has is keyed by its own field).
        Assert.All(preset.Sweep.Validate(preset.Plan, ValidationAudience.Local), e => Assert.Equal("Target.Cosmos.Endpoint", e.Field));
        var simulated = SeedPresets.OnSimulator(preset.Plan);
        Assert.Empty(preset.Sweep.Validate(simulated, ValidationAudience.Local));
        var steps = preset.Sweep.Steps(simulated);
        Assert.Equal(preset.Sweep.Values.Count * preset.Sweep.Series.Count, steps.Count);
        Assert.All(steps, s => Assert.Equal(BenchEngine.Targets.TargetKind.Simulated, s.Plan.Target.Kind));
    }

    [Fact]
    public void TheClientTuningStudy_SweepsConcurrencyInEachConnectionMode()
    {
        var preset = SweepPresets.Find("g-study")!;

        var steps = preset.Sweep.Steps(preset.Plan);

        Assert.Equal(12, steps.Count);
        Assert.Equal([5, 10, 20, 50, 100, 200, 5, 10, 20, 50, 100, 200], steps.Select(s => s.Plan.Load.Concurrency));
        Assert.Equal(6, steps.Count(s => s.Plan.Target.Cosmos.ConnectionMode == BenchEngine.Targets.CosmosConnectionMode.Gateway));
        Assert.Equal("G-study: Gateway vs Direct × concurrency · step 12: concurrency 200, Direct", steps[^1].Plan.Name);
    }

    [Fact]
    public void TheBatchStudy_SweepsTheBatchSizeFromOneToAHundred()
    {
        var steps = SweepPresets.Find("T-batch")!.Sweep.Steps(SweepPresets.Find("T-batch")!.Plan);

        Assert.Equal([1, 2, 5, 10, 20, 50, 100], steps.Select(s => s.Plan.Load.BatchSize));
    }

    [Theory]
    [InlineData("Load.Concurrency", new[] { "8", "abc" }, "Sweep.Values")]
    [InlineData("Target.Cosmos.Key", new[] { "1", "2" }, "Sweep.Setting")]
    [InlineData("Load.Concurrency", new[] { "8" }, "Sweep.Values")]
    [InlineData("Load.Concurrency", new[] { "8", "-3" }, "Sweep.Values[1]")]
    [InlineData("Load.Concurrency", new[] { "8", "NaN" }, "Sweep.Values")]
    public void AHostileSweep_IsRefusedOnItsField(string setting, string[] values, string field)
    {
        var sweep = new SweepOptions { Setting = setting, Values = values };

        Assert.Contains(sweep.Validate(new RunPlan()), e => e.Field == field);
    }

    [Theory]
    [InlineData("99999999999999999999")]
    [InlineData("abc")]
    [InlineData("NaN")]
    [InlineData("Infinity")]
    [InlineData("-Infinity")]
    [InlineData("1e400")]
    [InlineData("1.5")]
    public void AValueTheSettingCannotTake_IsNamed_WithoutTheReadersJsonPosition(string value)
    {
        var sweep = new SweepOptions { Setting = "Load.Concurrency", Values = ["8", value] };

        var error = Assert.Single(sweep.Validate(new RunPlan()));

        Assert.Equal(new FieldError("Sweep.Values", $"“{value}” is not a value Concurrency can take."), error);
    }

    [Fact]
    public void SeveralValuesTheSettingCannotTake_AreEachNamed()
    {
        var sweep = new SweepOptions { Setting = "Load.Concurrency", Values = ["abc", "8", "1.5", "-Infinity"] };

        Assert.Equal(
            ["“abc” is not a value Concurrency can take.", "“1.5” is not a value Concurrency can take.", "“-Infinity” is not a value Concurrency can take."],
            sweep.Validate(new RunPlan()).Select(e => e.Message));
    }

    [Theory]
    [InlineData("2", "02")]
    [InlineData("8", "+8")]
    public void TwoValuesThatSetTheSame_AreRefused(string first, string second)
    {
        var sweep = new SweepOptions { Setting = "Load.Concurrency", Values = ["1", first, second] };

        var error = Assert.Single(sweep.Validate(new RunPlan()));

        Assert.Equal(new FieldError("Sweep.Values", $"“{first}” and “{second}” set the same value: each value once."), error);
    }

    [Fact]
    public void SpacesAroundAValue_AreNotPartOfIt_SoTheSameValueTwiceIsRefusedAndAPaddedOneRuns()
    {
        var padded = new SweepOptions { Setting = "Load.Concurrency", Values = [" 8", "16 "], SeriesSetting = "Load.BatchSize", SeriesValues = [" 1 "] };
        var twice = new SweepOptions { Setting = "Load.Concurrency", Values = ["8", " 8"] };

        Assert.Empty(padded.Validate(new RunPlan()));
        Assert.Equal(["8", "16"], padded.Values);
        Assert.Equal([8, 16], padded.Steps(new RunPlan()).Select(s => s.Plan.Load.Concurrency));
        Assert.Contains(twice.Validate(new RunPlan()), e => e.Field == "Sweep.Values" && e.Message == "Each value once.");
    }
}
