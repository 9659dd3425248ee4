using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support.Components;
using Microsoft.EntityFrameworkCore;
using BenchEngine.Targets;

namespace BenchWeb.Tests.Web.Components;

public sealed class ProfileEditTests
{
    private const string ConnectionStringWithKey =
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz==;EndpointSuffix=core.windows.net";

    [Fact]
    public async Task Form_ConcurrencyZero_ShowsTheEngineMessageBesideTheField()
    {
        await using var context = new ComponentTestContext("profiles/new");
        var page = await context.RenderAsync<ProfileEdit>();

        await page.ChangeAsync("Load.Concurrency", "0");

        Assert.Contains("<div class=\"validation-message\" data-field=\"Load.Concurrency\">Must be at least 1.</div>", page.Markup, StringComparison.Ordinal);
        Assert.Contains("1 setting to fix before saving.", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Form_NotANumber_NamesTheFieldKeepsTheTextAndRefusesToSave()
    {
        await using var context = new ComponentTestContext("profiles/new");
        var page = await context.RenderAsync<ProfileEdit>();

        await page.ChangeAsync("Load.Concurrency", "ten");
        await page.SubmitAsync("save-profile");

        var markup = page.Markup;
        Assert.Contains("The Concurrency field must be a number.", markup, StringComparison.Ordinal);
        Assert.Contains("value=\"ten\"", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.Profiles.CountAsync());
    }

    [Fact]
    public async Task Save_InvalidSettings_SavesNothingAndMarksEveryField()
    {
        await using var context = new ComponentTestContext("profiles/new");
        var page = await context.RenderAsync<ProfileEdit>();
        await page.ChangeAsync("Target.Kind", nameof(TargetKind.CosmosSql));
        await page.ChangeAsync("Stop.DurationSeconds", "");

        await page.SubmitAsync("save-profile");

        var markup = page.Markup;
        Assert.Contains("data-field=\"Target.Cosmos.Endpoint\">Give the account endpoint", markup, StringComparison.Ordinal);
        Assert.Contains("data-field=\"Stop\">Say when to stop", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.Profiles.CountAsync());
        Assert.Empty(context.Navigation.History);
    }

    [Fact]
    public async Task Save_ValidSettings_StoresTheProfileAndOpensIt()
    {
        await using var context = new ComponentTestContext("profiles/new");
        var page = await context.RenderAsync<ProfileEdit>();
        await page.ChangeAsync("Name", "Forty workers");
        await page.ChangeAsync("Load.Concurrency", "40");

        await page.SubmitAsync("save-profile");

        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = await db.Profiles.SingleAsync();
        Assert.Equal("Forty workers", profile.Name);
        Assert.Equal(40, BenchEngine.Running.RunPlan.FromJson(profile.PlanJson).Load.Concurrency);
        Assert.Equal([$"profiles/{profile.Id}"], context.Navigation.History);
    }

    [Fact]
    public async Task Edit_StoredConnectionString_IsNeverRenderedOnlyThatOneIsSet()
    {
        await using var context = new ComponentTestContext();
        var form = new ProfileForm { Name = "Tables", TargetKind = TargetKind.TableStorage, NewTablesConnectionString = ConnectionStringWithKey };
        var id = await context.Get<ProfileService>().SaveAsync(0, form, CancellationToken.None);

        var page = await context.RenderAsync<ProfileEdit>(new Dictionary<string, object?> { ["Id"] = (long?)id });

        var markup = page.Markup;
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", markup, StringComparison.Ordinal);
        Assert.DoesNotContain("AccountKey", markup, StringComparison.Ordinal);
        Assert.Contains("data-secret-stored=\"true\"", markup, StringComparison.Ordinal);
        Assert.Contains("Paste a new one to replace it", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        var stored = await db.Secrets.SingleAsync();
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", stored.ProtectedValue, StringComparison.Ordinal);
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", (await db.Profiles.SingleAsync()).PlanJson, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Edit_SecretTypedThenSaved_LeavesTheFormEmpty()
    {
        await using var context = new ComponentTestContext();
        var id = await context.Get<ProfileService>().SaveAsync(0, new ProfileForm { Name = "Cosmos", TargetKind = TargetKind.CosmosSql, CosmosEndpoint = "https://acme.documents.azure.com:443/" }, CancellationToken.None);
        var page = await context.RenderAsync<ProfileEdit>(new Dictionary<string, object?> { ["Id"] = (long?)id });
        Assert.Contains("data-secret-stored=\"false\"", page.Markup, StringComparison.Ordinal);

        await page.ChangeAsync("NewCosmosKey", "c2VjcmV0LWNvc21vcy1rZXk=");
        await page.SubmitAsync("save-profile");

        var markup = page.Markup;
        Assert.DoesNotContain("c2VjcmV0LWNvc21vcy1rZXk=", markup, StringComparison.Ordinal);
        Assert.Contains("data-secret-stored=\"true\"", markup, StringComparison.Ordinal);
        var resolve = await context.Get<BenchWeb.Secrets.SecretStore>().CreateResolverAsync(id, CancellationToken.None);
        var plan = BenchEngine.Running.RunPlan.FromJson((await context.Get<ProfileService>().FindAsync(id, CancellationToken.None))!.PlanJson);
        Assert.Equal("c2VjcmV0LWNvc21vcy1rZXk=", resolve(plan.Target.Cosmos.KeySecret));
    }

    [Fact]
    public async Task New_FromPreset_StartsFromThePresetsRealPlan()
    {
        await using var context = new ComponentTestContext("profiles/new?preset=G2");
        var page = await context.RenderAsync<ProfileEdit>();

        var markup = page.Markup;
        Assert.Contains("From preset <strong>G2</strong>", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"Target.Cosmos.Endpoint\"", markup, StringComparison.Ordinal);
    }
}
