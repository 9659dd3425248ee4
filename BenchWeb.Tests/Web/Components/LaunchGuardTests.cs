using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Components.Shared;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The pages that launch runs, under the installation's limits, allow-list and kill switch.</summary>
[UnitTest]
public sealed class LaunchGuardTests
{
    [Theory]
    [MemberData(nameof(OverLimitCases.Fields), MemberType = typeof(OverLimitCases))]
    public async Task ProfileListRun_ShowsTheFieldAndTheLimitAndQueuesNothing_WhenTheProfileIsOverALimit(string field)
    {
        var (limit, plan) = OverLimitCases.For(field);
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<InstallationSettingsService>().SaveAsync(limit, TestActors.Admin, CancellationToken.None);
        await context.Services.GetRequiredService<ProfileService>().CreateAsync(plan, null, TestActors.Admin, CancellationToken.None);
        var page = context.Render<ProfileList>();
        page.WaitForElement(".run-profile");

        await page.Find(".run-profile").ClickAsync(new MouseEventArgs());

        var error = page.WaitForElement("#profile-error").TextContent;
        Assert.Contains($"{field}: the installation allows at most ", error, StringComparison.Ordinal);
        Assert.Contains("(set by an administrator)", error, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.Enqueued);
        Assert.Empty(context.NavigatedTo);
    }

    [Fact]
    public async Task Launch_RefusesAStoredKey_ForAnotherServerThanTheOneItWasStoredFor()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var id = await profiles.SaveAsync(0, ProfileForms.RedisWithKey("c2VjcmV0LWFjY2Vzcy1rZXk="), TestActors.Admin, CancellationToken.None);
        var plan = BenchEngine.Running.RunPlan.FromJson((await context.Services.GetRequiredService<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson);
        var runs = context.Services.GetRequiredService<RunService>();

        // A runner points the profile at a host of their own: the key stored for the cache is not sent there.
        var moved = plan.MovedTo("elsewhere.redis.cache.windows.net");
        var refused = await Assert.ThrowsAsync<BenchEngine.Running.RunPlanValidationException>(() => runs.StartAsync(moved, id, null, TestActors.Runner, CancellationToken.None));

        var error = Assert.Single(refused.Errors, e => e.Field == "Target.Redis.Host");
        Assert.Equal("The stored access key was stored for bench.redis.cache.windows.net:6380: store it again to use it with elsewhere.redis.cache.windows.net:6380.", error.Message);
        Assert.Empty(context.Jobs.Enqueued);
        await runs.StartAsync(plan, id, null, TestActors.Runner, CancellationToken.None);
        Assert.Single(context.Jobs.Enqueued);
    }

    [Fact]
    public async Task ProfileListRun_RefusesTheStoredConnectionStringsHost_WhenItIsOffTheAllowList()
    {
        await using var context = new BenchWebComponentContext();
        // The endpoint is read when the string is stored: the launch knows it without decrypting the secret.
        var form = ProfileForms.Draft("Tables elsewhere", TargetKind.TableStorage).WithNewSecret(ProfileForms.TablesConnectionString, "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;TableEndpoint=https://tables.example.net/;");
        await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, form, TestActors.Admin, CancellationToken.None);
        var page = context.Render<ProfileList>();
        page.WaitForElement(".run-profile");

        await page.Find(".run-profile").ClickAsync(new MouseEventArgs());

        var error = page.WaitForElement("#profile-error").TextContent;
        Assert.Contains("Target.Tables.ConnectionStringSecret: The stored connection string's Table Storage endpoint: The endpoint host 'tables.example.net' is not on this installation's endpoint allow-list", error, StringComparison.Ordinal);
        Assert.DoesNotContain("c2VjcmV0", page.Markup, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.Enqueued);
    }

    [Fact]
    public async Task ProfileEdit_ShowsTheLimitBesideTheFieldAsYouType_AndStillSaves()
    {
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxConcurrency = 50 }, TestActors.Admin, CancellationToken.None);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find("[id='Load.Concurrency']").ChangeAsync("60");

        Assert.Contains("<div class=\"validation-message\" data-field=\"Load.Concurrency\">the installation allows at most 50 (set by an administrator).</div>", page.Markup, StringComparison.Ordinal);
        Assert.Contains("1 setting is beyond what this installation allows", page.Find("#launch-error-count").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("#error-count"));

        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(60, RunPlan.FromJson((await db.Profiles.SingleAsync()).PlanJson).Load.Concurrency);
    }

    [Fact]
    public async Task ProfileEdit_SaveAndRun_SavesButSaysWhyTheRunIsRefused_WhenOverALimit()
    {
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxDurationSeconds = 30 }, TestActors.Admin, CancellationToken.None);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find("[id='Stop.DurationSeconds']").ChangeAsync("31");

        await page.Find("#save-and-run").ClickAsync(new MouseEventArgs());

        var message = page.WaitForElement("#profile-message").TextContent;
        Assert.Contains("Stop.DurationSeconds: the installation allows at most 30 s (set by an administrator).", message, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = await db.Profiles.SingleAsync();
        Assert.Empty(context.Jobs.Enqueued);
        Assert.Equal([$"profiles/{profile.Id}"], context.NavigatedTo);
    }

    [Theory]
    [InlineData(true, "https://acme.example.net/", "The endpoint host 'acme.example.net' is not on this installation's endpoint allow-list")]
    [InlineData(true, "http://acme.documents.azure.com/", "Use https for 'acme.documents.azure.com'")]
    [InlineData(false, "http://127.0.0.1:8081/", "this installation does not allow loopback endpoints")]
    public async Task ProfileEdit_ShowsTheAllowListsVerdictBesideTheEndpoint_AsYouType(bool allowLoopback, string endpoint, string expected)
    {
        await using var context = new BenchWebComponentContext(allowLoopbackEndpoints: allowLoopback);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find("[id='Target.Kind']").ChangeAsync(nameof(TargetKind.CosmosSql));

        await page.Find("[id='Target.Cosmos.Endpoint']").ChangeAsync(endpoint);

        var message = Assert.Single(page.FindAll(".validation-message[data-field='Target.Cosmos.Endpoint']"));
        Assert.Contains(expected, message.TextContent, StringComparison.Ordinal);
    }

    /// <summary>A profile saved through the API with an endpoint off the allow-list and a key read from an environment variable the
    /// installation does not list for it: opened in the editor, each setting the launch refuses shows its message beside its input,
    /// is outlined, and is counted, before anything is changed and after.</summary>
    [Fact]
    public async Task ProfileEdit_StoredProfile_ShowsOutlinesAndCountsEverySettingTheLaunchRefuses()
    {
        await using var context = new BenchWebComponentContext();
        var plan = RunPlan.FromJson("""{"target":{"kind":"CosmosSql","cosmos":{"endpoint":"https://evil.example.com/","keySecret":"K1"}},"stop":{"durationSeconds":2}}""");
        var profile = await context.Services.GetRequiredService<ProfileService>().CreateAsync(plan, null, TestActors.Runner, CancellationToken.None);
        var refused = await Assert.ThrowsAsync<RunPlanValidationException>(() => context.Services.GetRequiredService<RunService>().StartAsync(plan, profile.Id, null, TestActors.Runner, CancellationToken.None));
        string[] fields = [.. refused.Errors.Select(e => e.Field).Distinct().Order(StringComparer.Ordinal)];
        Assert.Equal(["Target.Cosmos.Endpoint", "Target.Cosmos.KeySecret"], fields);
        context.SignInAs(BenchWebRoles.Runner);

        var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, profile.Id));
        page.WaitForElement("#save-profile");

        Assert.Equal(fields, page.FindAll("[aria-invalid='true']").Select(e => e.Id!).Order(StringComparer.Ordinal).ToArray());
        Assert.StartsWith("Paste the secret, or name an environment variable listed for", Assert.Single(page.FindAll(".validation-message[data-field='Target.Cosmos.KeySecret']")).TextContent, StringComparison.Ordinal);
        Assert.Single(page.FindAll(".validation-message[data-field='Target.Cosmos.Endpoint']"));
        Assert.Contains("2 settings are beyond what this installation allows", page.Find("#launch-error-count").TextContent, StringComparison.Ordinal);

        // Once something changes, the key's refusal is among the settings to fix before saving: still beside it, outlined, counted once.
        await page.Find("[id='Load.Concurrency']").ChangeAsync("8");

        Assert.Equal(fields, page.FindAll("[aria-invalid='true']").Select(e => e.Id!).Order(StringComparer.Ordinal).ToArray());
        Assert.Single(page.FindAll(".validation-message[data-field='Target.Cosmos.KeySecret']"));
        Assert.Contains("1 setting to fix before saving", page.Find("#error-count").TextContent, StringComparison.Ordinal);
        Assert.Contains("1 setting is beyond what this installation allows", page.Find("#launch-error-count").TextContent, StringComparison.Ordinal);
    }

    /// <summary>The allow-list's refusal beside the endpoint names the host and a few of the patterns, not all of them (a narrow
    /// column); the launch's refusal still lists them all.</summary>
    [Fact]
    public async Task ProfileEdit_EndpointOffTheAllowList_NamesTheHostAndAFewPatterns_TheLaunchListsThemAll()
    {
        await using var context = new BenchWebComponentContext();
        var patterns = context.Services.GetRequiredService<InstallationSettingsService>().DefaultPatterns;
        Assert.True(patterns.Count > 5);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find("[id='Target.Kind']").ChangeAsync(nameof(TargetKind.CosmosSql));

        await page.Find("[id='Target.Cosmos.Endpoint']").ChangeAsync("https://evil.example.com/");

        var shown = Assert.Single(page.FindAll(".validation-message[data-field='Target.Cosmos.Endpoint']")).TextContent;
        Assert.StartsWith("The endpoint host 'evil.example.com' is not on this installation's endpoint allow-list", shown, StringComparison.Ordinal);
        Assert.Contains($"… {patterns.Count - 3} more", shown, StringComparison.Ordinal);
        Assert.DoesNotContain(patterns[^1], shown, StringComparison.Ordinal);
        Assert.True(shown.Length < 250, shown);
        var full = EndpointAllowList.Check(new Uri("https://evil.example.com/"), patterns, allowLoopback: false)!;
        Assert.All(patterns, p => Assert.Contains(p, full, StringComparison.Ordinal));
    }

    [Fact]
    public async Task ProfileEdit_AcceptsALoopbackEndpoint_WhenTheInstallationEnablesIt()
    {
        await using var context = new BenchWebComponentContext(allowLoopbackEndpoints: true);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find("[id='Target.Kind']").ChangeAsync(nameof(TargetKind.CosmosSql));

        await page.Find("[id='Target.Cosmos.Endpoint']").ChangeAsync("http://127.0.0.1:8081/");

        Assert.Empty(page.FindAll(".validation-message[data-field='Target.Cosmos.Endpoint']").Select(e => e.TextContent));
    }

    [Fact]
    public async Task HomeQuickStartAndProfileListRun_SayLaunchingIsPausedAndQueueNothing_WhenTheKillSwitchIsOn()
    {
        await using var context = new BenchWebComponentContext();
        await context.Services.GetRequiredService<RunService>().StopAllAsync(TestActors.Admin, "quota review", CancellationToken.None);
        await context.Services.GetRequiredService<ProfileService>().CreateAsync(Plan(), null, TestActors.Admin, CancellationToken.None);

        var home = context.Render<Home>();
        await home.Find("#quick-start").ClickAsync(new MouseEventArgs());
        var profiles = context.Render<ProfileList>();
        profiles.WaitForElement(".run-profile");
        await profiles.Find(".run-profile").ClickAsync(new MouseEventArgs());

        Assert.Contains("Launching is paused: an administrator (test Admin) stopped all runs", home.Find("p.error").TextContent, StringComparison.Ordinal);
        Assert.Contains("“quota review”", profiles.WaitForElement("#profile-error").TextContent, StringComparison.Ordinal);
        Assert.Empty(context.Jobs.Enqueued);
        Assert.Empty(context.NavigatedTo);
    }

    [Fact]
    public async Task Banner_ShowsWhoPausedAndWhy_OnlyWhileLaunchingIsPaused()
    {
        await using var context = new BenchWebComponentContext();
        var open = context.Render<LaunchPauseBanner>(parameters => parameters.Add(p => p.Location, "http://localhost/"));
        Assert.Empty(open.FindAll("#launch-paused-banner"));
        await context.Services.GetRequiredService<RunService>().StopAllAsync(TestActors.Admin, "quota review", CancellationToken.None);

        var paused = context.Render<LaunchPauseBanner>(parameters => parameters.Add(p => p.Location, "http://localhost/runs"));

        var banner = paused.WaitForElement("#launch-paused-banner").TextContent;
        Assert.Contains("Launching is paused: an administrator (test Admin)", banner, StringComparison.Ordinal);
        Assert.Contains("“quota review”", banner, StringComparison.Ordinal);
        Assert.Contains("Resume on the settings page", banner, StringComparison.Ordinal);
    }

    private static RunPlan Plan() => new() { Name = "guarded", Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 10 } };
}
