using BenchEngine.Presets;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Data;
using BenchWeb.Guard.Security;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class ProfileListTests
{
    // Every preset: the seed experiments, each target's own and the sweeps.
    private static int Total => SeedPresets.All.Count + SweepPresets.All.Count;

    private static IRenderedComponent<ProfileList> RenderPresets(BenchWebComponentContext context)
    {
        context.StartAt("profiles");
        var page = context.Render<ProfileList>();
        page.WaitForElement("#preset-table");
        return page;
    }

    [Fact]
    public async Task Presets_SayHowLongTheyTake_AtTheOriginalsRate_OrTheSimulatorModelsEstimate()
    {
        await using var context = new BenchWebComponentContext();

        var page = RenderPresets(context);

        Assert.Equal("about 27 min 41 s (1,000,000 documents at 602/s, the original's rate)", page.Find("tr[data-preset='G1'] .run-length").TextContent.Trim());
        Assert.Equal("about 17 s (20,000 entities at 1,187/s, an estimate from the simulator's model)", page.Find("tr[data-preset='L3'] .run-length").TextContent.Trim());
        Assert.Equal("about 6 s (10,000 blobs at 1,613/s, an estimate from the simulator's model)", page.Find("tr[data-preset='BL1'] .run-length").TextContent.Trim());
        Assert.DoesNotContain("unknown", page.Find("#preset-table").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Presets_AreGroupedByTarget_ThenByStudy_AndAllShownAtFirst()
    {
        await using var context = new BenchWebComponentContext();
        var page = RenderPresets(context);

        Assert.Equal($"{Total} of {Total} presets shown ({PresetEntry.All.Count(p => p.Run is not null)} runs, {PresetEntry.All.Count(p => p.Sweep is not null)} sweeps)",
            page.Find("#preset-count").TextContent.Trim());
        Assert.Equal(
            ["CosmosSql", "TableStorage", "CosmosTable", "BlobStorage", "QueueStorage", "Redis"],
            page.FindAll("#preset-table tbody.preset-group").Select(g => g.GetAttribute("data-target")));
        var cosmos = page.Find("tbody[data-target='CosmosSql']");
        Assert.Equal("Cosmos DB (SQL API) · 9 presets", cosmos.QuerySelector("tr.target-row")!.TextContent.Trim());
        Assert.Equal(["G", "J", "B"], cosmos.QuerySelectorAll("tr.study-row").Select(r => r.GetAttribute("data-study")));
        Assert.Equal("Client tuning: connection mode, workers and RU/s (G)", cosmos.QuerySelector("tr.study-row")!.TextContent.Trim());
        Assert.Equal(SeedPresets.All.Count, page.FindAll("#preset-table tr[data-preset]").Count);
        Assert.Equal(SweepPresets.All.Count, page.FindAll("#sweep-preset-table tr[data-sweep-preset]").Count);
    }

    [Fact]
    public async Task PresetFilter_HidesWhatDoesNotMatch_AndCountsWhatIsLeft()
    {
        await using var context = new BenchWebComponentContext();
        var page = RenderPresets(context);

        page.Find("#preset-target").Change("TableStorage");
        Assert.Equal(["L3"], page.FindAll("tr[data-preset]").Select(r => r.GetAttribute("data-preset")));
        Assert.Equal(["T-batch"], page.FindAll("tr[data-sweep-preset]").Select(r => r.GetAttribute("data-sweep-preset")));
        Assert.StartsWith($"2 of {Total} presets shown", page.Find("#preset-count").TextContent.Trim(), StringComparison.Ordinal);

        page.Find("#preset-target").Change("");
        page.Find("#preset-study").Change("G");
        Assert.Equal(["G1", "G2", "G4", "G14", "G17"], page.FindAll("tr[data-preset]").Select(r => r.GetAttribute("data-preset")));
        Assert.Equal(["G-study"], page.FindAll("tr[data-sweep-preset]").Select(r => r.GetAttribute("data-sweep-preset")));

        page.Find("#preset-study").Change("");
        page.Find("#preset-search").Input("blob 503");
        Assert.Equal(["BL1"], page.FindAll("tr[data-preset]").Select(r => r.GetAttribute("data-preset")));
        Assert.Equal("No sweep matches the filter.", page.Find("#no-sweep-preset").TextContent);
        Assert.StartsWith($"1 of {Total} presets shown", page.Find("#preset-count").TextContent.Trim(), StringComparison.Ordinal);

        page.Find("#preset-search").Input("no such preset");
        Assert.Equal("No experiment matches the filter.", page.Find("#no-preset").TextContent);
        Assert.StartsWith($"0 of {Total} presets shown", page.Find("#preset-count").TextContent.Trim(), StringComparison.Ordinal);

        page.Find("#preset-show-all").Click();
        Assert.Equal(SeedPresets.All.Count, page.FindAll("tr[data-preset]").Count);
        Assert.StartsWith($"{Total} of {Total} presets shown", page.Find("#preset-count").TextContent.Trim(), StringComparison.Ordinal);
        Assert.Empty(page.FindAll("#preset-show-all"));
    }

    [Fact]
    public async Task Presets_SayInWordsWhatTheyTellAndStore_AndWhatTheSimulatorChecks()
    {
        await using var context = new BenchWebComponentContext();
        var page = RenderPresets(context);

        var blob = page.Find("tr[data-preset='BL1']");
        Assert.Equal(SeedPresets.Find("BL1")!.Tells, blob.QuerySelector(".tells")!.TextContent.Trim());
        Assert.Contains("stops at 10,000 blobs", blob.QuerySelector(".plan-line")!.TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("document", blob.QuerySelector(".run-length")!.TextContent, StringComparison.Ordinal);
        const string NotBlobStorage = "On the simulator this runs as a simulated Cosmos DB: it checks the plan, not Blob Storage's speed.";
        Assert.Equal(NotBlobStorage, blob.QuerySelector("button.run-preset")!.GetAttribute("title"));
        Assert.Contains(NotBlobStorage, page.Find("tbody[data-target='BlobStorage'] tr.target-row").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("checks the plan", page.Find("tbody[data-target='CosmosSql'] tr.target-row").TextContent, StringComparison.Ordinal);
        Assert.Equal("927 inserts/s on the same 2-core App Service", page.Find("tr[data-preset='G2'] .original").TextContent.Trim());

        // Words, not the plan's identifiers.
        var shown = page.Find("#preset-table").TextContent + page.Find("#sweep-preset-table").TextContent;
        Assert.Contains("Concurrency: 5, 10, 20, 50, 100, 200 × Connection mode: Gateway, Direct", shown, StringComparison.Ordinal);
        Assert.All(["SmallDto", "PerformanceData", "BulkRecord", "CsvFile", "FieldValue", "FixedKeys", "ClosedLoop", "CosmosSql", "BlobStorage", "ConnectionMode", "BatchSize"],
            identifier => Assert.DoesNotContain(identifier, shown, StringComparison.Ordinal));
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

    [Fact]
    public async Task AViewer_OpensAProfilesSettings_ReadOnly_WhereARunnerOpensTheEditor()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles");
        var plan = SeededRuns.Plan(TargetKind.CosmosSql, "Direct, 100 × 10,000");
        long profileId;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var profile = new ProfileEntity { Name = plan.Name, Description = "the team's baseline", PlanJson = plan.ToJson(), CreatedAt = SeededRuns.Start, UpdatedAt = SeededRuns.Start };
            db.Profiles.Add(profile);
            await db.SaveChangesAsync();
            profileId = profile.Id;
        }

        context.SignInAs(BenchWebRoles.Viewer);
        var list = context.Render<ProfileList>();
        list.WaitForElement($"tr[data-profile='{plan.Name}'] a");
        Assert.Equal($"profiles/{profileId}/settings", list.Find($"tr[data-profile='{plan.Name}'] a").GetAttribute("href"));
        Assert.Equal($"profiles/{profileId}/settings", list.Find($"tr[data-profile='{plan.Name}'] a.view-settings").GetAttribute("href"));
        Assert.Empty(list.FindAll($"tr[data-profile='{plan.Name}'] button"));

        var settings = context.Render<ProfileSettings>(p => p.Add(x => x.Id, profileId));
        settings.WaitForElement("#profile-settings");
        Assert.Equal(plan.Name, settings.Find("h1").TextContent.Trim());
        Assert.Equal("the team's baseline", settings.Find("#profile-description").TextContent.Trim());
        Assert.Equal("100", settings.Find("#profile-settings tr[data-path='load.concurrency'] td").TextContent.Trim());
        Assert.Empty(settings.FindAll("#edit-profile"));

        context.SignInAs(BenchWebRoles.Runner);
        list = context.Render<ProfileList>();
        list.WaitForElement($"tr[data-profile='{plan.Name}'] a");
        Assert.Equal($"profiles/{profileId}", list.Find($"tr[data-profile='{plan.Name}'] a").GetAttribute("href"));
        settings = context.Render<ProfileSettings>(p => p.Add(x => x.Id, profileId));
        settings.WaitForElement("#edit-profile");

        var missing = context.Render<ProfileSettings>(p => p.Add(x => x.Id, profileId + 1));
        missing.WaitForElement("#profile-not-found");
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
