using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Guard.Secrets;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The profile editor's Redis section, drawn from the module's fields alone.</summary>
[UnitTest]
public sealed class RedisProfileEditTests
{
    [Fact]
    public async Task New_FromARedisPreset_ShowsItsFields_AndAsksForTheCachesHostBeforeSaving()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new?preset=RD2");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        var markup = page.Markup;
        Assert.Contains("From preset <strong>RD2</strong>", markup, StringComparison.Ordinal);
        foreach (var field in new[] { "Target.Redis.Host", "Target.Redis.Port", "Target.Redis.UseTls", "Target.Redis.Database", "Target.Redis.KeyPrefix" })
        {
            Assert.Contains($"id=\"{field}\"", markup, StringComparison.Ordinal);
        }

        Assert.Contains("id=\"NewRedisAccessKey\"", markup, StringComparison.Ordinal);
        Assert.Contains("data-field=\"Target.Redis.Host\">Give the cache's host name", markup, StringComparison.Ordinal);
        Assert.Empty(context.NavigatedTo);
    }

    [Fact]
    public async Task Edit_AccessKeyTypedThenSaved_IsStoredAsASecretAndNeverRendered()
    {
        const string AccessKey = "cmVkaXMtYWNjZXNzLWtleS1mb3ItdGVzdHM=";
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var form = ProfileForms.Draft("Cache", TargetKind.Redis).WithText("Target.Redis.Host", "myname.redis.cache.windows.net");
        var id = await profiles.SaveAsync(0, form, TestActors.Admin, CancellationToken.None);
        var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
        page.WaitForElement("#save-profile");

        await page.Find("[id='NewRedisAccessKey']").ChangeAsync(AccessKey);
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        Assert.DoesNotContain(AccessKey, page.Markup, StringComparison.Ordinal);
        Assert.Contains("data-secret-stored=\"true\"", page.Markup, StringComparison.Ordinal);
        var planJson = (await context.Services.GetRequiredService<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson;
        Assert.DoesNotContain(AccessKey, planJson, StringComparison.Ordinal);
        var resolve = await context.Services.GetRequiredService<SecretStore>().CreateResolverAsync(id, new BenchEngine.Running.RunPlan(), CancellationToken.None);
        Assert.Equal(AccessKey, resolve(RunPlan.FromJson(planJson).Target.Redis.AccessKeySecret));
    }
}
