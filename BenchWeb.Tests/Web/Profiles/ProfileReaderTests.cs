using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Profiles;

/// <summary>The read side of profiles on a migrated SQLite file.</summary>
[UnitTest]
public sealed class ProfileReaderTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task List_EverySavedProfile_ByNameThenId()
    {
        await using var context = new BenchWebComponentContext();
        var nightly = await AddProfileAsync(context, "Nightly");
        var gateway = await AddProfileAsync(context, "Gateway");
        var secondNightly = await AddProfileAsync(context, "Nightly");

        var listed = await context.Services.GetRequiredService<ProfileReader>().ListAsync(CancellationToken.None);

        Assert.Equal([gateway, nightly, secondNightly], listed.Select(p => p.Id));
    }

    [Fact]
    public async Task Find_AProfile_OrNullWhenThereIsNone()
    {
        await using var context = new BenchWebComponentContext();
        var id = await AddProfileAsync(context, "Gateway");
        var reader = context.Services.GetRequiredService<ProfileReader>();

        Assert.Equal("Gateway", (await reader.FindAsync(id, CancellationToken.None))!.Name);
        Assert.Null(await reader.FindAsync(id + 1, CancellationToken.None));
    }

    [Fact]
    public async Task LastRatesByProfile_TheLatestCompletedRunOfEachProfile_WithAThroughput()
    {
        await using var context = new BenchWebComponentContext();
        var measured = await AddProfileAsync(context, "Measured");
        var failedOnly = await AddProfileAsync(context, "Failed only");
        await AddRunAsync(context, measured, RunStatus.Completed, 800);
        var latest = await AddRunAsync(context, measured, RunStatus.Completed, 1_200);
        await AddRunAsync(context, measured, RunStatus.Failed, 5_000);
        await AddRunAsync(context, failedOnly, RunStatus.Failed, 900);

        var rates = await context.Services.GetRequiredService<BenchWeb.History.RunReader>().LastRatesByProfileAsync(CancellationToken.None);

        Assert.Equal((latest, 1_200d), rates[measured]);
        Assert.False(rates.ContainsKey(failedOnly));
    }

    [Fact]
    public async Task PlansMentioning_TheProfilesWhosePlanHasTheText_ThroughTheDelegateLowerPartsAsk()
    {
        await using var context = new BenchWebComponentContext();
        var plain = await AddProfileAsync(context, "Plain");
        var withFile = await AddProfileAsync(context, "With a file");
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var profile = await db.Profiles.SingleAsync(p => p.Id == withFile);
            profile.PlanJson = new RunPlan { Name = "With a file", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = 7 } }.ToJson();
            await db.SaveChangesAsync();
        }

        var plans = await context.Services.GetRequiredService<BenchWeb.Data.ProfilePlansReader>()("csvFileId", CancellationToken.None);

        var holder = Assert.Single(plans);
        Assert.Equal((withFile, "With a file"), (holder.Id, holder.Name));
        Assert.Equal(7, RunPlan.FromJson(holder.PlanJson).Workload.CsvFileId);
        Assert.DoesNotContain(plans, p => p.Id == plain);
    }

    private static async Task<long> AddProfileAsync(BenchWebComponentContext context, string name)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = new ProfileEntity { Name = name, PlanJson = new RunPlan { Name = name }.ToJson(), CreatedAt = Start, UpdatedAt = Start };
        db.Profiles.Add(profile);
        await db.SaveChangesAsync();
        return profile.Id;
    }

    private static async Task<long> AddRunAsync(BenchWebComponentContext context, long profileId, RunStatus status, double throughput)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = new RunEntity { ProfileId = profileId, ProfileName = "p", PlanJson = "{}", Status = status, QueuedAt = Start, AverageThroughput = throughput };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }
}
