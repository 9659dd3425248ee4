using System.Text.Json.Nodes;
using BenchEngine.Running;
using BenchWeb.Guard.Audit;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Profiles;

[UnitTest]
public sealed class ProfileAuditTests
{
    /// <summary>A profile stored before a target was added has no section for it: saving it unchanged changes nothing,
    /// and the audit log says nothing; a real change is still recorded, and only it.</summary>
    [Fact]
    public async Task Save_AProfileStoredBeforeATargetWasAdded_RecordsOnlyWhatTheUserChanged()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var id = await profiles.SaveAsync(0, new ProfileDraft(new RunPlan { Name = "older" }), TestActors.Admin, CancellationToken.None);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var profile = await db.Profiles.SingleAsync(p => p.Id == id);
            var plan = JsonNode.Parse(profile.PlanJson)!.AsObject();
            foreach (var section in new[] { "redis", "blobs", "queues" })
            {
                plan["target"]!.AsObject().Remove(section);
            }

            profile.PlanJson = plan.ToJsonString();
            await db.SaveChangesAsync();
        }

        var form = new ProfileDraft(RunPlan.FromJson((await context.Services.GetRequiredService<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson));
        await profiles.SaveAsync(id, form, TestActors.Admin, CancellationToken.None);
        form.Input<int>(PlanSettingsCatalog.Concurrency).Value = 20;
        await profiles.SaveAsync(id, form, TestActors.Admin, CancellationToken.None);

        await using var read = await context.Databases.CreateDbContextAsync();
        var changed = Assert.Single(await read.AuditEntries.Where(e => e.Action == AuditActions.ProfileChanged).ToListAsync());
        Assert.Equal("Load.Concurrency: 10 → 20", changed.Details);
    }
}
