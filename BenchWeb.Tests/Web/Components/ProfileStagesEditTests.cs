using BenchEngine.Running;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The profile form's stages: rows added and removed, each field's rule beside it, and the stages saved.</summary>
[UnitTest]
public sealed class ProfileStagesEditTests
{
    [Fact]
    public async Task Form_Stages_AddRemoveRows_ShowEachStagesRuleBesideItsField_AndSaveTheStagesWithoutADuration()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find("#add-stage").ClickAsync(new MouseEventArgs());
        await page.Find("#add-stage").ClickAsync(new MouseEventArgs());
        await page.Find("#add-stage").ClickAsync(new MouseEventArgs());
        Assert.Equal(3, page.FindAll("[data-stage-row]").Count);

        await page.Find(Id("Load.Stages[1].Concurrency")).ChangeAsync("0");
        Assert.Contains("data-field=\"Load.Stages[1].Concurrency\">Must be at least 1.", page.Markup, StringComparison.Ordinal);

        await page.Find(Id("Load.Stages[1].Concurrency")).ChangeAsync("40");
        await page.Find(Id("Load.Stages[1].Ramp")).ChangeAsync(nameof(StageRamp.Linear));
        await page.Find(Id("Load.Stages[2].DurationSeconds")).ChangeAsync("5");
        await page.Find("[data-remove-stage=\"0\"]").ClickAsync(new MouseEventArgs());
        Assert.Equal(2, page.FindAll("[data-stage-row]").Count);
        Assert.Contains("The run lasts 15 s", page.Find("#stages-length").TextContent, StringComparison.Ordinal);

        await page.Find(Id("Name")).ChangeAsync("Ramp up");
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        var plan = RunPlan.FromJson((await db.Profiles.SingleAsync()).PlanJson);
        Assert.Equal(
            [new LoadStage { DurationSeconds = 10, Concurrency = 40, Ramp = StageRamp.Linear }, new LoadStage { DurationSeconds = 5, Concurrency = 10 }],
            plan.Load.Stages);
        Assert.Null(plan.Stop.DurationSeconds);
        Assert.Empty(plan.Validate());
    }

    private static string Id(string id) => $"[id=\"{id}\"]";
}
