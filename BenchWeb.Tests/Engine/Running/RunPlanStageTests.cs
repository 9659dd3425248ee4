using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
public class RunPlanStageTests
{
    private static readonly RunPlan Closed = new() { Name = "staged", Stop = new StopOptions() };

    private static RunPlan ClosedWith(params LoadStage[] stages) => Closed with { Load = new LoadOptions { Stages = stages } };

    private static RunPlan OpenWith(params LoadStage[] stages) => Closed with { Load = new LoadOptions { Model = LoadModel.OpenLoop, Stages = stages } };

    public static TheoryData<RunPlan, string> HostileStages() => new()
    {
        { ClosedWith(new LoadStage { DurationSeconds = -5, Concurrency = 2 }), "Load.Stages[0].DurationSeconds" },
        { ClosedWith(new LoadStage { Concurrency = 2 }, new LoadStage { DurationSeconds = 0, Concurrency = 2 }), "Load.Stages[1].DurationSeconds" },
        { ClosedWith(new LoadStage { Concurrency = 2 }, new LoadStage { Concurrency = -1 }), "Load.Stages[1].Concurrency" },
        { ClosedWith(new LoadStage { Concurrency = 2 }, new LoadStage { Concurrency = 2 }, new LoadStage { Concurrency = 1_000_000_000 }), "Load.Stages[2].Concurrency" },
        { ClosedWith(new LoadStage()), "Load.Stages[0].Concurrency" },
        { ClosedWith(new LoadStage { RatePerSecond = 10, Concurrency = 2 }), "Load.Stages[0].RatePerSecond" },
        { OpenWith(new LoadStage { RatePerSecond = double.NaN }), "Load.Stages[0].RatePerSecond" },
        { OpenWith(new LoadStage { RatePerSecond = double.PositiveInfinity }), "Load.Stages[0].RatePerSecond" },
        { OpenWith(new LoadStage { RatePerSecond = -3 }), "Load.Stages[0].RatePerSecond" },
        { OpenWith(new LoadStage { RatePerSecond = 10 }, new LoadStage { Concurrency = 5 }), "Load.Stages[1].Concurrency" },
        { OpenWith(new LoadStage { RatePerSecond = 10, Ramp = (StageRamp)7 }), "Load.Stages[0].Ramp" },
        { ClosedWith([.. Enumerable.Repeat(new LoadStage { Concurrency = 1, DurationSeconds = 1 }, 51)]), "Load.Stages" },
        { ClosedWith(new LoadStage { Concurrency = 1, DurationSeconds = int.MaxValue }, new LoadStage { Concurrency = 1, DurationSeconds = int.MaxValue }), "Load.Stages" },
        { Closed with { Load = new LoadOptions { Model = LoadModel.Unbounded, Stages = [new LoadStage { Concurrency = 2 }] }, Stop = new StopOptions { TotalDocuments = 10 } }, "Load.Stages" },
        { Closed with { Load = new LoadOptions { Agents = 2, Stages = [new LoadStage { Concurrency = 2 }] } }, "Load.Stages" },
        { Closed with { Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 5, Stages = [new LoadStage { RatePerSecond = 2 }] } }, "Load.RatePerSecond" },
        { ClosedWith(new LoadStage { Concurrency = 2, DurationSeconds = 10 }) with { Stop = new StopOptions { DurationSeconds = 60 } }, "Stop.DurationSeconds" },
        { ClosedWith(new LoadStage { Concurrency = 2 }) with { Stop = new StopOptions { DocumentsPerWorker = 5 } }, "Stop.DocumentsPerWorker" },
    };

    [Theory]
    [MemberData(nameof(HostileStages))]
    public void Validate_RefusesAHostileStage_OnItsFieldPath(RunPlan plan, string field)
    {
        var errors = plan.Validate();

        Assert.Contains(errors, e => e.Field == field);
    }

    [Fact]
    public void Validate_AcceptsStages_WhenTheDurationIsTheirSumOrLeftEmpty()
    {
        var stages = new[] { new LoadStage { DurationSeconds = 5, Concurrency = 2 }, new LoadStage { DurationSeconds = 10, Concurrency = 20, Ramp = StageRamp.Linear } };

        Assert.Empty(ClosedWith(stages).Validate());
        Assert.Empty((ClosedWith(stages) with { Stop = new StopOptions { DurationSeconds = 15 } }).Validate());
        Assert.Empty(OpenWith(new LoadStage { DurationSeconds = 3, RatePerSecond = 0.5 }).Validate());
        Assert.Equal(15, ClosedWith(stages).EffectiveDurationSeconds);
        Assert.Equal(20, ClosedWith(stages).Load.PeakConcurrency);
    }

    [Fact]
    public void FromJson_StagesWithoutAStopSection_LastTheirSum_AndAPlanWithNeitherStillAMinute()
    {
        var staged = RunPlan.FromJson("""{ "name": "s", "load": { "stages": [ { "durationSeconds": 2, "concurrency": 1 }, { "durationSeconds": 2, "concurrency": 2 } ] } }""");
        var plain = RunPlan.FromJson("""{ "name": "p" }""");

        Assert.Empty(staged.Validate());
        Assert.Null(staged.Stop.DurationSeconds);
        Assert.Equal(4, staged.EffectiveDurationSeconds);
        Assert.Equal(60, plain.Stop.DurationSeconds);
        Assert.Equal(4, RunPlan.FromJson(staged.ToJson()).EffectiveDurationSeconds);
    }

    [Fact]
    public void FromJson_ReadsAPlanWithoutStages_AsAConstantLoad_AndRoundTripsStages()
    {
        var plan = RunPlan.FromJson("""{ "name": "old", "load": { "model": "ClosedLoop", "concurrency": 4 }, "stop": { "durationSeconds": 10 } }""");
        Assert.Empty(plan.Load.Stages);
        Assert.Empty(plan.Validate());

        var staged = ClosedWith(new LoadStage { DurationSeconds = 4, Concurrency = 3, Ramp = StageRamp.Linear });
        var json = staged.ToJson();
        Assert.Contains("\"ramp\": \"Linear\"", json, StringComparison.Ordinal);
        Assert.Equal(staged.Load.Stages, RunPlan.FromJson(json).Load.Stages);
    }
}
