using BenchEngine.Running;
using BenchWeb.Components.Pages.Admin;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Launch;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class SettingsAdminTests
{
    [Fact]
    public async Task Save_StoresLimitsAndPatterns_AndAuditsOldToNewWithTheCircuitsAddress()
    {
        await using var context = new BenchWebComponentContext();
        var page = context.Render<SettingsAdmin>();
        page.WaitForElement("#save-settings");

        await page.Find("#MaxConcurrency").ChangeAsync("50");
        await page.Find("#EndpointPatterns").ChangeAsync("*.documents.azure.com\nbench.example.net");
        await page.Find("#save-settings").ClickAsync(new MouseEventArgs());

        Assert.Contains("Settings saved.", page.WaitForElement("#settings-message").TextContent, StringComparison.Ordinal);
        var settings = context.Services.GetRequiredService<InstallationSettingsService>();
        var rules = await settings.RulesAsync(CancellationToken.None);
        Assert.Equal(50, rules.Limits.MaxConcurrency);
        Assert.Equal(settings.DefaultLimits.MaxDurationSeconds, rules.Limits.MaxDurationSeconds);
        Assert.Equal(["*.documents.azure.com", "bench.example.net"], rules.EndpointPatterns);
        var entry = await SingleEntryAsync(context, AuditActions.SettingsChanged);
        Assert.Equal("test Admin", entry.UserName);
        Assert.Equal("Admin", entry.Role);
        Assert.Equal("Local", entry.Via);
        Assert.Equal(BenchWebComponentContext.ClientAddress.ToString(), entry.RemoteIp);
        Assert.Contains("Maximum concurrency: 1,000 (default) → 50", entry.Details, StringComparison.Ordinal);
        Assert.Contains("Endpoint allow-list: added bench.example.net, removed ", entry.Details, StringComparison.Ordinal);
        Assert.Contains("*.table.core.windows.net", entry.Details, StringComparison.Ordinal);
        Assert.Contains("*.redis.cache.windows.net", entry.Details, StringComparison.Ordinal);

        // Emptied again: back to the defaults, and the change says so.
        await page.Find("#MaxConcurrency").ChangeAsync("");
        await page.Find("#save-settings").ClickAsync(new MouseEventArgs());
        page.WaitForAssertion(() => Assert.Equal(2, CountEntries(context, AuditActions.SettingsChanged)));
        Assert.Equal(settings.DefaultLimits.MaxConcurrency, (await settings.RulesAsync(CancellationToken.None)).Limits.MaxConcurrency);
    }

    [Fact]
    public async Task Save_TooBroadPattern_ShowsTheMessageBesideTheListAndStoresNothing()
    {
        await using var context = new BenchWebComponentContext();
        var page = context.Render<SettingsAdmin>();
        page.WaitForElement("#save-settings");

        await page.Find("#EndpointPatterns").ChangeAsync("*.com");
        await page.Find("#save-settings").ClickAsync(new MouseEventArgs());

        Assert.Contains("'*.com' is too broad", page.Find(".validation-message[data-field='EndpointPatterns']").TextContent, StringComparison.Ordinal);
        Assert.Null((await context.Services.GetRequiredService<InstallationSettingsService>().GetAsync(CancellationToken.None)).EndpointPatterns);
        Assert.Equal(0, CountEntries(context, AuditActions.SettingsChanged));
    }

    [Fact]
    public async Task StopAll_CancelsQueuedRunsAndPausesUntilResumed_RecordingEachStep()
    {
        await using var context = new BenchWebComponentContext();
        var runs = context.Services.GetRequiredService<RunService>();
        var first = await runs.StartAsync(Plan("first"), null, null, TestActors.Runner, CancellationToken.None);
        var second = await runs.StartAsync(Plan("second"), null, null, TestActors.Runner, CancellationToken.None);
        var page = context.Render<SettingsAdmin>();
        page.WaitForElement("#stop-all");

        await page.Find("#kill-switch-reason").ChangeAsync("runaway bill");
        await page.Find("#stop-all").ClickAsync(new MouseEventArgs());
        await page.Find("#confirm-stop-all").ClickAsync(new MouseEventArgs());

        Assert.Equal("true", page.WaitForElement("#kill-switch-state").GetAttribute("data-paused"));
        Assert.Contains("“runaway bill”", page.Find("#kill-switch-state").TextContent, StringComparison.Ordinal);
        Assert.Contains($"Cancelled 2 runs: #{first}, #{second}", page.Find("#settings-message").TextContent, StringComparison.Ordinal);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            Assert.All(await db.Runs.ToListAsync(), r => Assert.Equal(RunStatus.Cancelled, r.Status));
        }

        await Assert.ThrowsAsync<LaunchesPausedException>(() => runs.StartAsync(Plan("refused"), null, null, TestActors.Runner, CancellationToken.None));
        var paused = await SingleEntryAsync(context, AuditActions.LaunchesPaused);
        Assert.Equal("all runs stopped: runaway bill", paused.Details);
        Assert.Equal(BenchWebComponentContext.ClientAddress.ToString(), paused.RemoteIp);
        Assert.Equal(2, CountEntries(context, AuditActions.RunCancelled));

        await page.Find("#resume-launching").ClickAsync(new MouseEventArgs());

        Assert.Equal("false", page.WaitForElement("#kill-switch-state").GetAttribute("data-paused"));
        Assert.Equal("test Admin", (await SingleEntryAsync(context, AuditActions.LaunchesResumed)).UserName);
        Assert.True(await runs.StartAsync(Plan("after"), null, null, TestActors.Runner, CancellationToken.None) > second);
    }

    internal static async Task<BenchWeb.Data.AuditEntryEntity> SingleEntryAsync(BenchWebComponentContext context, string action)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        return await db.AuditEntries.SingleAsync(e => e.Action == action);
    }

    internal static int CountEntries(BenchWebComponentContext context, string action)
    {
        using var db = context.Databases.CreateDbContext();
        return db.AuditEntries.Count(e => e.Action == action);
    }

    private static RunPlan Plan(string name) => new() { Name = name, Stop = new StopOptions { DurationSeconds = 60 } };
}
