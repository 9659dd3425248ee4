using System.Text.Json.Nodes;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>A setting written through its descriptor: the plan's records are copied along the setting's properties.</summary>
[UnitTest]
public sealed class SettingDescriptorWriteTests
{
    [Fact]
    public void With_ASetting_ChangesItInACopy_AndLeavesThePlanAsItWas()
    {
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 4, Throttling = new ThrottleOptions { MaxRetries = 3 } } };

        var changed = PlanSettingsCatalog.MaxRetries.With(plan, 7);

        Assert.Equal((7, 4), (changed.Load.Throttling.MaxRetries, changed.Load.Concurrency));
        Assert.Equal(3, plan.Load.Throttling.MaxRetries);
        Assert.Equal(7, PlanSettingsCatalog.MaxRetries.ValueIn(changed));
    }

    [Fact]
    public void With_AStageSetting_ChangesThatStageOnly()
    {
        var plan = new RunPlan { Load = new LoadOptions { Stages = [new() { Concurrency = 2 }, new() { Concurrency = 5 }] } };

        var changed = PlanSettingsCatalog.StageRamp.With(plan, 1, StageRamp.Linear);

        Assert.Equal([StageRamp.Step, StageRamp.Linear], changed.Load.Stages.Select(s => s.Ramp));
        Assert.Equal(StageRamp.Linear, PlanSettingsCatalog.StageRamp.ValueIn(changed, 1));
        Assert.Equal(StageRamp.Step, plan.Load.Stages[1].Ramp);
        Assert.Throws<ArgumentOutOfRangeException>(() => PlanSettingsCatalog.StageRamp.With(plan, 2, StageRamp.Linear));
        Assert.Throws<InvalidOperationException>(() => PlanSettingsCatalog.StageRamp.With(plan, StageRamp.Linear));
    }

    [Fact]
    public void With_ASettingOfAMissingSection_StartsTheSectionFromItsDefaults()
    {
        var plan = new RunPlan { Thresholds = null, Stop = new StopOptions { DurationSeconds = 60 }, Diagnostics = null };

        var thresholds = PlanSettingsCatalog.MaxP99LatencyMs.With(plan, 250.0);
        var autoStop = PlanSettingsCatalog.AutoStopErrors.With(plan, 0.05);
        var key = PlanSettingsCatalog.PartitionKeyCount.With(plan, 20);
        var diagnostics = PlanSettingsCatalog.DiagnosticsThresholdMs.With(plan, 100.0);

        Assert.Equal(new ThresholdOptions { MaxP99LatencyMs = 250 }, thresholds.Thresholds);
        Assert.Equal(new AutoStopOptions { ErrorFractionAbove = 0.05 }, autoStop.Stop.AutoStop);
        Assert.Equal(60, autoStop.Stop.DurationSeconds);
        Assert.Equal(new PartitionKeyOptions { KeyCount = 20 }, key.Workload.PartitionKey);
        Assert.Equal(DiagnosticsOptions.Default with { ThresholdMs = 100 }, diagnostics.Diagnostics);
    }

    [Fact]
    public void With_NoValueForASettingThatCannotBeEmpty_LeavesOutItsOptionalSection_OrIsRefused()
    {
        var plan = new RunPlan { Workload = new WorkloadOptions { PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.HotKey } } };

        Assert.Null(PlanSettingsCatalog.PartitionKeyStrategy.With(plan, null).Workload.PartitionKey);
        Assert.Throws<ArgumentException>(() => PlanSettingsCatalog.Name.With(plan, null));
    }

    [Fact]
    public void With_ATargetsSetting_WritesItsKindsSection_WhicheverKindIsChosen()
    {
        var plan = new RunPlan { Target = new TargetOptions { Kind = TargetKind.CosmosSql } };

        var changed = PlanSettingsCatalog.Find("Target.Redis.Port")!.With(plan, 6379);

        Assert.Equal(6379, changed.Target.Redis.Port);
        Assert.Equal(6379, PlanSettingsCatalog.Find("Target.Redis.Port")!.ValueIn(changed));
        Assert.Equal(TargetKind.CosmosSql, changed.Target.Kind);
    }

    public static TheoryData<string> Kinds() => [.. TargetRegistry.All.Select(m => m.Kind.Name)];

    [Theory]
    [MemberData(nameof(Kinds))]
    public void TargetFields_NameTheSettingsAsThePlansJsonDoes(string kindName)
    {
        var module = new TargetKind(kindName).Module;
        var options = new TargetOptions { Kind = module.Kind };
        var json = JsonNode.Parse(new RunPlan { Target = options }.ToJson())!["target"]!.AsObject();

        foreach (var field in module.Fields.Where(f => f.ValueIn(options) is not null))
        {
            var names = field.Path.Split('.')[1..].Select(n => char.ToLowerInvariant(n[0]) + n[1..]).ToArray();
            Assert.True(json[names[0]]?[names[1]] is not null, $"{field.Path} is not in the plan's JSON.");
        }
    }
}
