using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;
using BenchWeb.Uploads;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
[Collection(PlanValidationCollection.Name)]
public sealed class CheckedPlanTests
{
    private static readonly RunPlan Valid = new() { Name = "checked", Stop = new StopOptions { TotalDocuments = 20 } };

    [Fact]
    public void Check_InvalidPlan_GivesNoCheckedPlan_AndEveryError()
    {
        var plan = Valid with { Load = new LoadOptions { Concurrency = 0 } };

        var (checkedPlan, errors) = plan.Check();

        Assert.Null(checkedPlan);
        Assert.Equal(plan.Validate(), errors);
        Assert.Contains(errors, e => e.Field == PlanSettingsCatalog.Concurrency.Path);
        Assert.Equal(errors, Assert.Throws<RunPlanValidationException>(() => plan.EnsureValid()).Errors);
    }

    [Fact]
    public void Check_ValidPlan_GivesThePlanAsChecked()
    {
        var (checkedPlan, errors) = Valid.Check(ValidationAudience.Local);

        Assert.Empty(errors);
        Assert.Same(Valid, checkedPlan!.Plan);
        Assert.Equal(ValidationAudience.Local, checkedPlan.Audience);
    }

    [Fact]
    public void CheckedPlans_HaveNoPublicConstructor_OnlyTheRulesMakeThem()
    {
        Assert.Empty(typeof(CheckedPlan).GetConstructors());
        Assert.Empty(typeof(CheckedWebPlan).GetConstructors());
    }

    [Fact]
    public void WebCheck_ServerPath_GivesNoCheckedPlan_ThoughTheEngineWouldRunIt()
    {
        var plan = Valid with { Workload = Valid.Workload with { CsvPath = "documents.csv" } };

        var (checkedPlan, errors) = WebPlanRules.Check(plan, static _ => null);

        Assert.Null(checkedPlan);
        Assert.Equal(WebPlanRules.ServerPathMessage, Assert.Single(errors, e => e.Field == WebPlanRules.CsvPathField).Message);
    }

    [Fact]
    public async Task Runner_CheckedPlan_RunsWithoutCheckingAgain_AndAPlainPlanIsCheckedOnce()
    {
        var runner = new BenchmarkRunner(TimeProvider.System) { WarmUp = TimeSpan.Zero };
        var context = new TargetContext(TimeProvider.System, _ => null);
        var checkedPlan = Valid.EnsureValid();
        using var checks = new PlanValidations();

        var ofChecked = await runner.RunAsync(checkedPlan, context);
        var checksOfChecked = checks.Total;
        var ofPlain = await runner.RunAsync(Valid, context);

        Assert.Equal(RunStatus.Completed, ofChecked.Status);
        Assert.Equal(RunStatus.Completed, ofPlain.Status);
        Assert.Equal(0, checksOfChecked);
        Assert.Equal(1, checks.Total);
    }
}
