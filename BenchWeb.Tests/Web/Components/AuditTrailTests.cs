using BenchWeb.Components.Pages.Admin;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class AuditTrailTests
{
    private static readonly Actor Alice = new("local:ALICE", "Alice", BenchWebRoles.Runner, "API token #3 “nightly”", "198.51.100.4");
    private static readonly Actor Bob = new("local:BOB", "Bob", BenchWebRoles.Admin, SignInSources.Local, "198.51.100.5");

    [Fact]
    public async Task AuditTrail_ListsNewestFirstFiftyAPage_WithNoWayToEditOrDelete()
    {
        await using var context = new BenchWebComponentContext();
        await SeedAsync(context);

        var page = context.Render<AuditTrail>();
        page.WaitForElement("#audit-entries");

        var rows = page.FindAll("#audit-entries tbody tr");
        Assert.Equal(AuditFilter.DefaultPageSize, rows.Count);
        Assert.Equal("profile.created", rows[0].GetAttribute("data-action"));
        Assert.Contains("profile #5", rows[0].TextContent, StringComparison.Ordinal);
        Assert.Contains("198.51.100.5", rows[0].TextContent, StringComparison.Ordinal);
        Assert.Equal("Page 1 of 2, 60 entries", page.Find("#page-info").TextContent);
        Assert.Equal("admin/audit?page=2", page.Find("#next-page").GetAttribute("href"));
        Assert.Equal("api/audit/export.csv", page.Find("#export-audit-csv").GetAttribute("href"));
        Assert.Empty(page.FindAll("#audit-entries button, #audit-entries input, #audit-entries form"));
    }

    [Theory]
    [InlineData("admin/audit?action=profile.created", 5)]
    [InlineData("admin/audit?action=run.", 55)]
    [InlineData("admin/audit?who=alice", 55)]
    [InlineData("admin/audit?who=bob&action=run.launched", 0)]
    public async Task AuditTrail_ShowsOnlyMatchingEntries_WhenFilteredByTheAddress(string address, int expected)
    {
        await using var context = new BenchWebComponentContext();
        await SeedAsync(context);
        context.StartAt(address);

        var page = context.Render<AuditTrail>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        if (expected == 0)
        {
            Assert.Equal("No entry matches these filters.", page.Find("#no-entries").TextContent);
        }
        else
        {
            Assert.EndsWith($", {expected} entries", page.Find("#page-info").TextContent, StringComparison.Ordinal);
            Assert.StartsWith("api/audit/export.csv?", page.Find("#export-audit-csv").GetAttribute("href"), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task AuditTrail_DayFilter_KeepsTheDaysEntries()
    {
        await using var context = new BenchWebComponentContext();
        await SeedAsync(context);
        var today = DateTime.UtcNow.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
        var tomorrow = DateTime.UtcNow.AddDays(1).ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
        context.StartAt($"admin/audit?from={today}&to={today}");
        var todays = context.Render<AuditTrail>();
        todays.WaitForElement("#page-info");
        Assert.EndsWith(", 60 entries", todays.Find("#page-info").TextContent, StringComparison.Ordinal);

        // The page follows its address: tomorrow has nothing yet.
        context.StartAt($"admin/audit?from={tomorrow}");

        todays.WaitForElement("#no-entries");
    }

    [Fact]
    public async Task AuditEntries_AreRefusedAChangeOrRemoval_ByTheAppsDatabaseContext()
    {
        await using var context = new BenchWebComponentContext();
        await SeedAsync(context);
        await using var db = await context.Databases.CreateDbContextAsync();
        var entry = await db.AuditEntries.FirstAsync();

        entry.Details = "rewritten";
        var changed = await Assert.ThrowsAsync<InvalidOperationException>(() => db.SaveChangesAsync());
        db.ChangeTracker.Clear();
        db.AuditEntries.Remove(await db.AuditEntries.FirstAsync());
        var removed = await Assert.ThrowsAsync<InvalidOperationException>(() => db.SaveChangesAsync());

        Assert.Contains("append-only", changed.Message, StringComparison.Ordinal);
        Assert.Contains("append-only", removed.Message, StringComparison.Ordinal);
        db.ChangeTracker.Clear();
        Assert.Equal(60, await db.AuditEntries.CountAsync());
        Assert.Equal("of the plan “x”", (await db.AuditEntries.FirstAsync()).Details);
    }

    private static async Task SeedAsync(BenchWebComponentContext context)
    {
        var audit = context.Services.GetRequiredService<AuditLog>();
        for (var i = 1; i <= 55; i++)
        {
            await audit.RecordAsync(Alice, AuditActions.RunLaunched, $"run #{i}", "of the plan “x”", "acme.documents.azure.com", CancellationToken.None);
        }

        for (var i = 1; i <= 5; i++)
        {
            await audit.RecordAsync(Bob, AuditActions.ProfileCreated, $"profile #{i}", null, null, CancellationToken.None);
        }
    }
}
