using BenchEngine.Targets;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class ProfileListTests
{
    [Fact]
    public async Task Presets_SayHowLongTheyTake_AtTheOriginalsRate_OrThatItIsUnknown()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles");

        var page = context.Render<ProfileList>();
        page.WaitForElement("tr[data-preset='G1']");

        Assert.Equal("Takes about 27 min 41 s (1,000,000 documents at 602/s, the original's rate)", page.Find("tr[data-preset='G1'] .run-length").TextContent.Trim());
        Assert.StartsWith("Takes unknown", page.Find("tr[data-preset='L3'] .run-length").TextContent.Trim(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Profiles_SayHowLongTheyTake_AtTheRateOfTheirLastCompletedRun()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles");
        var plan = SeededRuns.Plan(TargetKind.CosmosSql, "Direct, 100 × 10,000");
        long profileId;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var profile = new ProfileEntity { Name = plan.Name, PlanJson = plan.ToJson(), CreatedAt = SeededRuns.Start, UpdatedAt = SeededRuns.Start };
            db.Profiles.Add(profile);
            await db.SaveChangesAsync();
            profileId = profile.Id;
        }

        var page = context.Render<ProfileList>();
        page.WaitForElement($"tr[data-profile='{plan.Name}']");
        Assert.Equal("unknown (1,000,000 documents at a rate only a run will tell)", page.Find($"tr[data-profile='{plan.Name}'] .run-length").TextContent.Trim());

        var runId = await SeededRuns.AddAsync(context.Databases, plan, SeededRuns.Seconds(10, 2_000, 6));
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.FindAsync(runId);
            run!.ProfileId = profileId;
            run.AverageThroughput = 2_000;
            await db.SaveChangesAsync();
        }

        page = context.Render<ProfileList>();
        page.WaitForElement($"tr[data-profile='{plan.Name}']");
        Assert.Equal($"about 8 min 20 s (1,000,000 documents at 2,000/s, its last run's, #{runId})", page.Find($"tr[data-profile='{plan.Name}'] .run-length").TextContent.Trim());
    }

    [Theory]
    [InlineData("G-study", 12)]
    [InlineData("T-batch", 7)]
    public async Task SweepPreset_OnTheSimulator_QueuesOneSweepOfEveryStep_AndOpensItsPage(string id, int steps)
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles");
        var page = context.Render<ProfileList>();
        page.WaitForElement($"tr[data-sweep-preset='{id}']");

        page.Find($"tr[data-sweep-preset='{id}'] button.sweep-preset").Click();

        var sweepId = Assert.Single(context.Jobs.EnqueuedSweeps);
        page.WaitForAssertion(() => Assert.EndsWith($"/sweeps/{sweepId}", context.Services.GetRequiredService<Microsoft.AspNetCore.Components.NavigationManager>().Uri, StringComparison.Ordinal));
        await using var db = await context.Databases.CreateDbContextAsync();
        var sweep = await db.Sweeps.FindAsync(sweepId);
        var plan = BenchEngine.Running.RunPlan.FromJson(sweep!.PlanJson);
        Assert.Equal(TargetKind.Simulated, plan.Target.Kind);
        Assert.Equal(steps, sweep.ReadSweep().Steps(plan).Count);
    }
}
