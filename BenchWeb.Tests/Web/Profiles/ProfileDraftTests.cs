using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Profiles;

/// <summary>The editor's draft: inputs change the working plan through the descriptors, and the saved plan follows the
/// editor's rules.</summary>
[UnitTest]
public sealed class ProfileDraftTests
{
    [Fact]
    public void Input_AShare_IsAPercentageInTheEditor_AndAFractionInThePlan()
    {
        var draft = new ProfileDraft { AutoStopEnabled = true };

        draft.Input<double?>(PlanSettingsCatalog.AutoStopErrors).Value = 7;
        draft.Input<double?>(PlanSettingsCatalog.MinShareOfBaseline).Value = 95;

        Assert.Equal(0.07, draft.Plan.Stop.AutoStop!.ErrorFractionAbove!.Value, 12);
        Assert.Equal(0.95, draft.Plan.Thresholds!.MinShareOfBaseline!.Value, 12);
        Assert.Equal(7, draft.Input<double?>(PlanSettingsCatalog.AutoStopErrors).Value);
    }

    [Fact]
    public void Plan_EmptySections_AreLeftOut_AsAPlanThatNeverHadThem()
    {
        var draft = new ProfileDraft();
        draft.Input<double?>(PlanSettingsCatalog.MaxP99LatencyMs).Value = 100;
        draft.Input<double?>(PlanSettingsCatalog.MaxP99LatencyMs).Value = null;
        draft.Input<int>(PlanSettingsCatalog.DiagnosticsSlowestPerSecond).Value = 1;

        Assert.NotNull(draft.Working.Thresholds);
        Assert.Null(draft.Plan.Thresholds);
        Assert.Null(draft.Plan.Diagnostics);
        Assert.Null(draft.Plan.Stop.AutoStop);
        draft.AutoStopEnabled = true;
        Assert.Equal(new AutoStopOptions(), draft.Plan.Stop.AutoStop);
    }

    [Fact]
    public void Plan_LeavesOutWhatItsChoicesDoNotRead_ButTheDraftKeepsIt()
    {
        var draft = new ProfileDraft(new RunPlan
        {
            Name = "  Ramp  ",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, CsvFileId = 4, Template = " " },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, BatchSize = 20 },
        });
        draft.AddStage();

        var plan = draft.Plan;

        Assert.Equal("Ramp", plan.Name);
        Assert.Null(plan.Workload.CsvFileId);
        Assert.Null(plan.Workload.Template);
        Assert.Null(plan.Load.RatePerSecond);
        Assert.Equal(1, plan.Load.BatchSize);
        Assert.Null(plan.Stop.DurationSeconds);
        Assert.Equal((null, 50.0), (plan.Load.Stages[0].Concurrency, plan.Load.Stages[0].RatePerSecond));
        Assert.Equal((50.0, 20, 60.0), (draft.Working.Load.RatePerSecond, draft.Working.Load.BatchSize, draft.Working.Stop.DurationSeconds));
    }

    [Fact]
    public void TargetInput_AValueTheSettingCannotTake_IsSaidForTheChosenKind_AndThePlanKeepsItsValue()
    {
        var draft = ProfileForms.Draft("cache", TargetKind.Redis);
        var port = draft.Input<long?>(TargetSettings.Field("Target.Redis.Port")!);

        port.Value = null;

        Assert.Null(port.Value);
        Assert.Equal(6380, draft.Plan.Target.Redis.Port);
        Assert.Contains(draft.ValidateAll(_ => null), e => e is { Field: "Target.Redis.Port", Message: "Give a whole number." });
        port.Value = 70_000;
        Assert.Contains(draft.ValidateAll(_ => null), e => e is { Field: "Target.Redis.Port", Message: "Between 1 and 65,535 (Azure: 6380 with TLS)." });
        port.Value = 3_000_000_000;
        Assert.Contains(draft.ValidateAll(_ => null), e => e is { Field: "Target.Redis.Port", Message: "A whole number between 1 and 65,535." });
        port.Value = 6379;
        Assert.Equal(6379, draft.Plan.Target.Redis.Port);
        Assert.DoesNotContain(draft.ValidateAll(_ => null), e => e.Field == "Target.Redis.Port");
    }

    [Fact]
    public void NewSecret_IsNeverRead_FromThePlan_AndCountsAsNamedUntilStored()
    {
        var draft = ProfileForms.Draft("tables", TargetKind.TableStorage).WithText(ProfileForms.TablesConnectionString, "")
            .WithNewSecret(ProfileForms.TablesConnectionString, "AccountKey=c2VjcmV0");

        Assert.Equal("(stored with this profile)", draft.Plan.Target.Tables.ConnectionStringSecret);
        Assert.DoesNotContain("c2VjcmV0", draft.Plan.ToJson(), StringComparison.Ordinal);
        draft.ForgetTypedSecrets();
        Assert.Empty(draft.TypedSecrets);
        Assert.Equal("", draft.Plan.Target.Tables.ConnectionStringSecret);
    }
}
