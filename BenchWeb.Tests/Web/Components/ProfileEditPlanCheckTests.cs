using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The editor checks its plan once a change, and <em>Save and run</em> saves and launches the plan it checked at
/// the click: neither the profile store nor the launch checks it again.</summary>
[UnitTest]
[Collection(PlanValidationCollection.Name)]
public sealed class ProfileEditPlanCheckTests
{
    [Fact]
    public async Task SaveAndRun_ChecksThePlanOnceAtTheClick_AndTheStoreAndTheLaunchNotAgain()
    {
        await using var context = new BenchWebComponentContext();
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-and-run");
        using var checks = new PlanValidations();

        await page.Find("[id='Load.Concurrency']").ChangeAsync("12");
        Assert.Equal(1, checks.Total);

        await page.Find("#save-and-run").ClickAsync(new());

        var queued = Assert.Single(context.Jobs.Enqueued);
        Assert.Equal(2, checks.Total);
        Assert.Equal(2, checks.By(PlanValidations.Editor));
        Assert.Equal(0, checks.By(PlanValidations.ProfileStore));
        Assert.Equal(0, checks.By(PlanValidations.Launch));
        Assert.True(queued > 0);
    }
}
