using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Sweeps;
using BenchWeb.Data;
using BenchWeb.Sweeps;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class SweepLauncherTests
{
    [Fact]
    public async Task Launcher_CosmosProfile_OffersItsClientSettingsByTheEditorsLabels()
    {
        await using var context = new BenchWebComponentContext();
        var profileId = await AddProfileAsync(context, new RunPlan { Name = "cosmos", Target = new TargetOptions { Kind = TargetKind.CosmosSql } });

        var form = context.Render<SweepLauncher>(p => p.Add(x => x.ProfileId, profileId));

        form.WaitForAssertion(() => Assert.Equal(
            ["Concurrency", "Agents", "Document size (bytes)", "Connection mode", "Gateway max connections", "Bulk mode"],
            form.FindAll("#Sweep\\.Setting option").Select(o => o.TextContent)));
        Assert.Equal("Target.Cosmos.GatewayMaxConnections", form.FindAll("#Sweep\\.Setting option")[^2].GetAttribute("value"));
        Assert.Equal(["none", "Concurrency", "Agents", "Document size (bytes)", "Connection mode", "Gateway max connections", "Bulk mode"],
            form.FindAll("#Sweep\\.SeriesSetting option").Select(o => o.TextContent));
    }

    [Fact]
    public async Task Launcher_SimulatorProfile_OffersNoCosmosClientSetting()
    {
        await using var context = new BenchWebComponentContext();
        var profileId = await AddProfileAsync(context, new RunPlan { Name = "simulated" });

        var form = context.Render<SweepLauncher>(p => p.Add(x => x.ProfileId, profileId));

        form.WaitForAssertion(() => Assert.Equal(
            ["Concurrency", "Batch size", "Agents", "Document size (bytes)", "Provisioned RU/s"],
            form.FindAll("#Sweep\\.Setting option").Select(o => o.TextContent)));
        Assert.DoesNotContain("Cosmos", form.Markup, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("TableStorage", "Load.BatchSize", "Target.Cosmos.ConnectionMode")]
    [InlineData("CosmosSql", "Target.Cosmos.GatewayMaxConnections", "Load.BatchSize")]
    [InlineData("Simulated", "Target.Simulator.ProvisionedRequestUnits", "Target.Cosmos.Bulk")]
    public void Axes_OfATarget_AreTheSettingsItsRunsRead(string kind, string offered, string refused)
    {
        var plan = new RunPlan { Target = new TargetOptions { Kind = new TargetKind(kind) } };

        Assert.Contains(offered, SweepAxes.For(plan));
        Assert.DoesNotContain(refused, SweepAxes.For(plan));
        var error = Assert.Single(SweepAxes.Errors(new SweepOptions { Setting = refused, Values = ["1", "2"] }, plan));
        Assert.Equal("Sweep.Setting", error.Field);
        Assert.Contains($"{SweepOptions.Label(refused)} ({refused})", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Steps_AreNamedAfterTheSweepAndTheirStepInWords()
    {
        var sweep = new SweepOptions { Setting = "Load.Concurrency", Values = ["10", "100"], SeriesSetting = "Target.Cosmos.ConnectionMode", SeriesValues = ["Direct", "Gateway"] };

        var steps = sweep.Steps(new RunPlan { Name = "tuning", Target = new TargetOptions { Kind = TargetKind.CosmosSql } });

        Assert.Equal(["tuning · step 1: concurrency 10, Direct", "tuning · step 2: concurrency 100, Direct", "tuning · step 3: concurrency 10, Gateway", "tuning · step 4: concurrency 100, Gateway"],
            steps.Select(s => s.Plan.Name));
        Assert.Equal("bulk mode on", SweepOptions.Words("Target.Cosmos.Bulk", "true"));
        Assert.Equal("provisioned RU/s 400", SweepOptions.Words("Target.Simulator.ProvisionedRequestUnits", "400"));
    }

    private static async Task<long> AddProfileAsync(BenchWebComponentContext context, RunPlan plan)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = new ProfileEntity { Name = plan.Name, PlanJson = plan.ToJson(), CreatedAt = SteppedClock.Start, UpdatedAt = SteppedClock.Start };
        db.Profiles.Add(profile);
        await db.SaveChangesAsync();
        return profile.Id;
    }
}
