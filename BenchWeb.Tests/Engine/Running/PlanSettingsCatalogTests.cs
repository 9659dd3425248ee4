using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
public sealed class PlanSettingsCatalogTests
{
    [Fact]
    public void Of_PropertyExpression_GivesTheFieldPathAndTheJsonPath()
    {
        var concurrency = SettingDescriptor.Of(p => p.Load.Concurrency, "Concurrency");
        var shares = SettingDescriptor.Of(p => p.Stop.AutoStop!.DroppedFractionAbove, "Unsent share");
        var stageRamp = SettingDescriptor.Of(p => p.Load.Stages[0].Ramp, "Ramp");

        Assert.Equal(("Load.Concurrency", "load.concurrency", typeof(int)), (concurrency.Path, concurrency.JsonPath, concurrency.ValueType));
        Assert.Equal(("Stop.AutoStop.DroppedFractionAbove", "stop.autoStop.droppedFractionAbove"), (shares.Path, shares.JsonPath));
        Assert.Equal(("Load.Stages[].Ramp", "load.stages[].ramp"), (stageRamp.Path, stageRamp.JsonPath));
        Assert.True(stageRamp.Matches("Load.Stages[12].Ramp"));
        Assert.False(stageRamp.Matches("Load.Stages[12].Concurrency"));
    }

    [Fact]
    public void AppliesTo_ASettingIsReadOnlyWhenThePlanUsesIt_AndATargetsOnlyByItsOwnKind()
    {
        var closed = new RunPlan { Target = new TargetOptions { Kind = TargetKind.CosmosSql } };
        var open = closed with { Load = closed.Load with { Model = LoadModel.OpenLoop }, Workload = closed.Workload with { Shape = BenchEngine.Workloads.DocumentShape.JsonTemplate } };
        var tables = closed with { Target = new TargetOptions { Kind = TargetKind.TableStorage } };
        var bulk = PlanSettingsCatalog.Find("Target.Cosmos.Bulk")!;

        Assert.Equal((false, true), (PlanSettingsCatalog.RatePerSecond.AppliesTo(closed), PlanSettingsCatalog.RatePerSecond.AppliesTo(open)));
        Assert.Equal((true, false), (PlanSettingsCatalog.DocumentsPerWorker.AppliesTo(closed), PlanSettingsCatalog.DocumentsPerWorker.AppliesTo(open)));
        Assert.Equal((false, true), (PlanSettingsCatalog.Template.AppliesTo(closed), PlanSettingsCatalog.Template.AppliesTo(open)));
        Assert.Equal((false, true), (PlanSettingsCatalog.BatchSize.AppliesTo(closed), PlanSettingsCatalog.BatchSize.AppliesTo(tables)));
        Assert.Equal((true, false), (bulk.AppliesTo(closed), bulk.AppliesTo(tables)));
        Assert.True(PlanSettingsCatalog.Concurrency.AppliesTo(closed));
    }

    [Fact]
    public void Section_IsThePathsOwn_ButRetriesAndATargetsClientSettingsAreTheClients()
    {
        Assert.Equal(SettingSection.Load, PlanSettingsCatalog.Concurrency.Section);
        Assert.Equal(SettingSection.Load, PlanSettingsCatalog.StageRamp.Section);
        Assert.Equal(SettingSection.Client, PlanSettingsCatalog.MaxRetries.Section);
        Assert.Equal(SettingSection.Client, PlanSettingsCatalog.Find("Target.Cosmos.Bulk")!.Section);
        Assert.Equal(SettingSection.Target, PlanSettingsCatalog.Find("Target.Cosmos.Endpoint")!.Section);
        Assert.Equal(SettingSection.Stop, PlanSettingsCatalog.Stop.Section);
        Assert.Equal(SettingSection.PassFail, PlanSettingsCatalog.MinShareOfBaseline.Section);
        Assert.Equal(SettingSection.Diagnostics, PlanSettingsCatalog.DiagnosticsSlowestPerSecond.Section);
        Assert.Equal(SettingSection.Target, PlanSettingsCatalog.Name.Section);
    }

    [Fact]
    public void At_NamesOneStagesSetting_TheWayTheRulesReportIt()
    {
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = 4, Stages = [new() { DurationSeconds = 10, Concurrency = 2 }, new() { DurationSeconds = 10, Concurrency = 0 }] },
        };

        Assert.Equal("Load.Stages[1].Concurrency", PlanSettingsCatalog.StageConcurrency.At(1));
        Assert.Contains(plan.Validate(), e => e.Field == PlanSettingsCatalog.StageConcurrency.At(1));
        Assert.Throws<InvalidOperationException>(() => PlanSettingsCatalog.Concurrency.At(1));
    }

    [Theory]
    [InlineData("Load.Stages[12].Ramp", "Load.Stages[].Ramp")]
    [InlineData("Load.Stages[].Ramp", "Load.Stages[].Ramp")]
    [InlineData("Load.Stages[0].Steps[3].Rate", "Load.Stages[].Steps[].Rate")]
    [InlineData("Load.Concurrency", "Load.Concurrency")]
    public void WithoutIndices_LeavesOutEveryListIndex_AndMatchesTheSettingThatHasIt(string fieldPath, string expected)
    {
        Assert.Equal(expected, SettingDescriptor.WithoutIndices(fieldPath));
        Assert.True(PlanSettingsCatalog.StageConcurrency.Matches(PlanSettingsCatalog.StageConcurrency.At(7)));
    }

    [Fact]
    public void Of_SomethingOtherThanAProperty_IsRefused()
    {
        Assert.Throws<ArgumentException>(() => SettingDescriptor.Of(p => p.Load.Concurrency + 1, "Concurrency"));
    }

    [Fact]
    public void ValueIn_ReadsThePlan_AndIsNullWhenASectionOnTheWayIsAbsent()
    {
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 7 }, Thresholds = null };

        Assert.Equal(7, PlanSettingsCatalog.Concurrency.ValueIn(plan));
        Assert.Null(PlanSettingsCatalog.MaxDroppedPercent.ValueIn(plan));
        Assert.Equal(2.5, PlanSettingsCatalog.MaxDroppedPercent.ValueIn(plan with { Thresholds = new ThresholdOptions { MaxDroppedPercent = 2.5 } }));
    }

    [Fact]
    public void Catalog_DeclaresEachSettingOnce_AndFindsItByEveryPathItGoesBy()
    {
        Assert.Equal(PlanSettingsCatalog.All.Count, PlanSettingsCatalog.All.Select(d => d.Path).Distinct(StringComparer.Ordinal).Count());
        foreach (var setting in PlanSettingsCatalog.All)
        {
            Assert.Same(setting, PlanSettingsCatalog.Find(setting.Path));
            Assert.Same(setting, PlanSettingsCatalog.Find(setting.JsonPath));
            Assert.Same(setting, PlanSettingsCatalog.Find(setting.EditorPath));
        }

        Assert.Same(PlanSettingsCatalog.StageConcurrency, PlanSettingsCatalog.Find("Load.Stages[3].Concurrency"));
        Assert.Same(PlanSettingsCatalog.AutoStopErrors, PlanSettingsCatalog.Find("Stop.AutoStop.ErrorPercent"));
        Assert.Null(PlanSettingsCatalog.Find("environment.runtime"));
    }

    [Fact]
    public void Catalog_EveryTargetsField_IsASettingWithItsLabelAndComparisonName()
    {
        foreach (var field in TargetRegistry.All.SelectMany(m => m.Fields).DistinctBy(f => f.Path))
        {
            var setting = PlanSettingsCatalog.Find(field.Path);
            Assert.NotNull(setting);
            Assert.Equal((field.Label, field.Setting, field.Help), (setting.Label, setting.Name, setting.Help));
            Assert.Same(field, setting.TargetField);
        }
    }

    [Fact]
    public void SettingLabels_EverySetting_IsNamedByItsDescriptor()
    {
        foreach (var setting in PlanSettingsCatalog.All)
        {
            Assert.Equal(setting.Label, SettingLabels.Of(setting.Path));
            Assert.Equal(setting.Label, SettingLabels.Of(setting.JsonPath));
        }

        // A stage's setting, whichever stage; what no setting is keeps its property name in words.
        Assert.Equal("Concurrency", SettingLabels.Of("load.stages[4].concurrency"));
        Assert.Equal("Processor count", SettingLabels.Of("environment.processorCount"));
        Assert.Equal(".NET runtime", SettingLabels.Of("environment.runtime"));
    }
}
