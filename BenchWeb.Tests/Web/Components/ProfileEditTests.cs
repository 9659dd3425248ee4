using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Components.Pages.Profiles;
using BenchWeb.Guard.Secrets;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Uploads;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class ProfileEditTests
{
    private const string ConnectionStringWithKey =
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz==;EndpointSuffix=core.windows.net";

    public static TheoryData<string> Kinds() => [.. TargetRegistry.All.Select(m => m.Kind.Name)];

    /// <summary>A target's section of the form is drawn from its module's fields alone: each kind's settings that apply show,
    /// with their labels, and what is typed reaches the saved plan.</summary>
    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task Form_EachRegisteredKind_ShowsItsModulesFields_AndSavesWhatIsTyped(string kindName)
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        var module = new TargetKind(kindName).Module;

        await page.Find(Id("Target.Kind")).ChangeAsync(kindName);

        var defaults = new TargetOptions { Kind = module.Kind };
        foreach (var field in module.Fields.Where(f => f.AppliesWhen is null || f.AppliesWhen(defaults)))
        {
            Assert.NotNull(page.Find(Id(field.Path)));
            Assert.Contains(field.Label, page.Markup, StringComparison.Ordinal);
        }

        // Fields of the other kinds are not on the page.
        foreach (var other in TargetRegistry.All.Where(m => m.Section != module.Section).SelectMany(m => m.Fields))
        {
            Assert.Empty(page.FindAll(Id(other.Path)));
        }

        // What is typed reaches the plan, and the module's rule about it shows beside that input: a required text blanked.
        if (module.Fields.FirstOrDefault(f => f.Input is TargetInput.Text) is { } text)
        {
            await page.Find(Id(text.Path)).ChangeAsync("");
            Assert.NotEmpty(page.FindAll($".validation-message[data-field='{text.Path}']"));
            Assert.Contains("invalid", page.Find(Id(text.Path)).ClassName, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Form_AnOptionalSettingLeftEmpty_StaysEmpty_RatherThanTakingItsDefault()
    {
        // A container of serverless or shared throughput has no RU/s of its own: the plan must not gain 10,000.
        var plan = new BenchEngine.Running.RunPlan
        {
            Name = "serverless",
            Target = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/", RequestUnits = null } },
        };

        var form = new ProfileDraft(plan);

        var requestUnits = form.Input<long?>(TargetSettings.Field("Target.Cosmos.RequestUnits")!);
        Assert.Null(requestUnits.Value);
        Assert.Null(form.Plan.Target.Cosmos.RequestUnits);
        requestUnits.Value = 4_000;
        Assert.Equal(4_000, form.Plan.Target.Cosmos.RequestUnits);
        requestUnits.Value = null;
        Assert.Null(form.Plan.Target.Cosmos.RequestUnits);
    }

    [Fact]
    public async Task Form_TargetNumberBeyondItsType_SaysWhichWholeNumbersFit_AndDoesNotSave()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Target.Simulator.ProvisionedRequestUnits")).ChangeAsync("99999999999");
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        Assert.Contains("data-field=\"Target.Simulator.ProvisionedRequestUnits\">A whole number between", page.Markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Empty(await db.Profiles.ToListAsync());
    }

    [Fact]
    public async Task Form_ConcurrencyZero_ShowsTheEngineMessageBesideTheField()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Load.Concurrency")).ChangeAsync("0");

        Assert.Contains("<div class=\"validation-message\" data-field=\"Load.Concurrency\">Must be at least 1.</div>", page.Markup, StringComparison.Ordinal);
        Assert.Contains("1 setting to fix before saving.", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Form_OpenLoop_OffersTheUnsentLimits_ChecksTheirBounds_AndSavesThem()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        Assert.Empty(page.FindAll(Id("Thresholds.MaxDroppedPercent")));
        await page.Find(Id("Load.Model")).ChangeAsync(nameof(BenchEngine.Running.LoadModel.OpenLoop));
        await page.Find(Id("Load.RatePerSecond")).ChangeAsync("100");
        await page.Find(Id("Stop.AutoStop")).ChangeAsync(true);

        await page.Find(Id("Thresholds.MaxDroppedPercent")).ChangeAsync("150");
        await page.Find(Id("Stop.AutoStop.DroppedPercent")).ChangeAsync("250");

        Assert.Contains("data-field=\"Thresholds.MaxDroppedPercent\">A percentage between 0 and 100.", page.Markup, StringComparison.Ordinal);
        Assert.Contains("data-field=\"Stop.AutoStop.DroppedPercent\">", page.Markup, StringComparison.Ordinal);

        await page.Find(Id("Name")).ChangeAsync("Open loop with limits");
        await page.Find(Id("Thresholds.MaxDroppedPercent")).ChangeAsync("1");
        await page.Find(Id("Stop.AutoStop.DroppedPercent")).ChangeAsync("10");
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        var plan = BenchEngine.Running.RunPlan.FromJson((await db.Profiles.SingleAsync()).PlanJson);
        Assert.Equal(1, plan.Thresholds!.MaxDroppedPercent);
        Assert.Equal(0.1, plan.Stop.AutoStop!.DroppedFractionAbove!.Value, 9);
    }

    [Fact]
    public async Task Form_NotANumber_NamesTheFieldKeepsTheTextAndRefusesToSave()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Load.Concurrency")).ChangeAsync("ten");
        // As in the browser, the Save button submits the form it is in.
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        var markup = page.Markup;
        Assert.Contains("The Concurrency field must be a number.", markup, StringComparison.Ordinal);
        Assert.Contains("value=\"ten\"", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.Profiles.CountAsync());
    }

    [Fact]
    public async Task Save_InvalidSettings_SavesNothingAndMarksEveryField()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find(Id("Target.Kind")).ChangeAsync(nameof(TargetKind.CosmosSql));
        await page.Find(Id("Stop.DurationSeconds")).ChangeAsync("");

        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        var markup = page.Markup;
        Assert.Contains("data-field=\"Target.Cosmos.Endpoint\">Give the account endpoint", markup, StringComparison.Ordinal);
        Assert.Contains("data-field=\"Stop\">Say when to stop", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.Profiles.CountAsync());
        Assert.Empty(context.NavigatedTo);
    }

    [Fact]
    public async Task Save_ValidSettings_StoresTheProfileAndOpensIt()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find(Id("Name")).ChangeAsync("Forty workers");
        await page.Find(Id("Load.Concurrency")).ChangeAsync("40");

        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = await db.Profiles.SingleAsync();
        Assert.Equal("Forty workers", profile.Name);
        Assert.Equal(40, BenchEngine.Running.RunPlan.FromJson(profile.PlanJson).Load.Concurrency);
        Assert.Equal([$"profiles/{profile.Id}"], context.NavigatedTo);
    }

    [Fact]
    public async Task Edit_StoredConnectionString_IsNeverRenderedOnlyThatOneIsSet()
    {
        await using var context = new BenchWebComponentContext();
        var form = ProfileForms.Draft("Tables", TargetKind.TableStorage).WithNewSecret(ProfileForms.TablesConnectionString, ConnectionStringWithKey);
        var id = await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, form, TestActors.Admin, CancellationToken.None);

        var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
        page.WaitForElement("#save-profile");

        var markup = page.Markup;
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", markup, StringComparison.Ordinal);
        Assert.DoesNotContain("AccountKey", markup, StringComparison.Ordinal);
        Assert.Contains("data-secret-stored=\"true\"", markup, StringComparison.Ordinal);
        Assert.Contains("Paste a new connection string to replace it", markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        var stored = await db.Secrets.SingleAsync();
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", stored.ProtectedValue, StringComparison.Ordinal);
        Assert.DoesNotContain("VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz", (await db.Profiles.SingleAsync()).PlanJson, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Edit_SecretTypedThenSaved_LeavesTheFormEmpty()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var id = await profiles.SaveAsync(0, ProfileForms.Draft("Cosmos", TargetKind.CosmosSql).WithText(ProfileForms.CosmosEndpoint, "https://acme.documents.azure.com:443/"), TestActors.Admin, CancellationToken.None);
        var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
        page.WaitForElement("#save-profile");
        Assert.Contains("data-secret-stored=\"false\"", page.Markup, StringComparison.Ordinal);

        await page.Find(Id("NewCosmosKey")).ChangeAsync("c2VjcmV0LWNvc21vcy1rZXk=");
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        var markup = page.Markup;
        Assert.DoesNotContain("c2VjcmV0LWNvc21vcy1rZXk=", markup, StringComparison.Ordinal);
        Assert.Contains("data-secret-stored=\"true\"", markup, StringComparison.Ordinal);
        var resolve = await context.Services.GetRequiredService<SecretStore>().CreateResolverAsync(id, new BenchEngine.Running.RunPlan(), CancellationToken.None);
        var plan = BenchEngine.Running.RunPlan.FromJson((await context.Services.GetRequiredService<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson);
        Assert.Equal("c2VjcmV0LWNvc21vcy1rZXk=", resolve(plan.Target.Cosmos.KeySecret));
    }

    [Fact]
    public async Task New_FromPreset_StartsFromThePresetsRealPlan()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new?preset=G2");

        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        var markup = page.Markup;
        Assert.Contains("From preset <strong>G2</strong>", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"Target.Cosmos.Endpoint\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Edit_CsvShape_OffersTheUploadedFilesAndNoPathBox()
    {
        await using var context = new BenchWebComponentContext();
        var fileId = await UploadAsync(context, "bts-january.csv", rows: 7);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Workload.Shape")).ChangeAsync(nameof(DocumentShape.CsvFile));

        var option = page.Find($"{Id("Workload.CsvFileId")} option[value='{fileId}']");
        Assert.Equal($"bts-january.csv · #{fileId} · 7 rows", option.TextContent);
        Assert.Empty(page.FindAll(Id("Workload.CsvPath")));
        Assert.DoesNotContain("CSV file path", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Save_CsvShapeWithAnUploadedFile_StoresItsNumberAndNoPath()
    {
        await using var context = new BenchWebComponentContext();
        var fileId = await UploadAsync(context, "bts-january.csv", rows: 7);
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find(Id("Workload.Shape")).ChangeAsync(nameof(DocumentShape.CsvFile));

        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());
        Assert.Contains($"data-field=\"Workload.CsvFileId\">{WebPlanRules.ChooseFileMessage}", page.Markup, StringComparison.Ordinal);
        await page.Find(Id("Workload.CsvFileId")).ChangeAsync(fileId.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

        await using var db = await context.Databases.CreateDbContextAsync();
        var profile = await db.Profiles.SingleAsync();
        var plan = BenchEngine.Running.RunPlan.FromJson(profile.PlanJson);
        Assert.Equal(fileId, plan.Workload.CsvFileId);
        Assert.Null(plan.Workload.CsvPath);
        Assert.DoesNotContain(CsvUploadStore.FolderName, profile.PlanJson, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Edit_ProfileNamingAServerPath_IsRefusedUntilAnUploadedFileReplacesIt()
    {
        await using var context = new BenchWebComponentContext();
        var fileId = await UploadAsync(context, "bts-january.csv", rows: 7);
        var serverFile = Path.Combine(Path.GetTempPath(), $"benchweb-secret-{Guid.NewGuid():N}.csv");
        await File.WriteAllTextAsync(serverFile, CsvUploads.SecretLine + "\n1,2\n");
        long id;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var legacy = new BenchWeb.Data.ProfileEntity
            {
                Name = "legacy",
                PlanJson = new BenchEngine.Running.RunPlan { Name = "legacy", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = serverFile } }.ToJson(),
            };
            db.Profiles.Add(legacy);
            await db.SaveChangesAsync();
            id = legacy.Id;
        }

        try
        {
            var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
            page.WaitForElement("#forget-csv-path");

            await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

            Assert.Contains($"data-field=\"Workload.CsvPath\">{ProfileDraft.InProfileWords(WebPlanRules.ServerPathMessage)}", page.Markup, StringComparison.Ordinal);
            Assert.DoesNotContain("TOP-SECRET", page.Markup, StringComparison.Ordinal);
            await page.Find(Id("Workload.CsvFileId")).ChangeAsync(fileId.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Assert.Empty(page.FindAll("#forget-csv-path"));
            await page.Find("#save-profile").ClickAsync(new MouseEventArgs());

            await using var db = await context.Databases.CreateDbContextAsync();
            var plan = BenchEngine.Running.RunPlan.FromJson((await db.Profiles.SingleAsync()).PlanJson);
            Assert.Equal(fileId, plan.Workload.CsvFileId);
            Assert.Null(plan.Workload.CsvPath);
        }
        finally
        {
            File.Delete(serverFile);
        }
    }

    private static async Task<long> UploadAsync(BenchWebComponentContext context, string name, int rows)
    {
        var result = await context.Services.GetRequiredService<CsvUploadStore>()
            .SaveAsync(new MemoryStream(System.Text.Encoding.UTF8.GetBytes(CsvUploads.Flights(rows))), name, TestActors.Runner, CancellationToken.None);
        return result.File!.Id;
    }

    // The form's ids are the engine's field paths, whose dots a CSS id selector would read as classes.
    [Fact]
    public async Task Form_BlankName_SpeaksOfTheProfileNotThePlan()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Name")).ChangeAsync("");

        Assert.Equal("Give the profile a name.", page.Find(".validation-message[data-field='Name']").TextContent);
        Assert.DoesNotContain(" plan", page.Find("form").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Form_RuleBroken_OutlinesTheInputThatBreaksItAndNoOther()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        await page.Find(Id("Target.Kind")).ChangeAsync(nameof(TargetKind.CosmosSql));

        await page.Find(Id("Load.Concurrency")).ChangeAsync("0");

        Assert.Equal("true", page.Find(Id("Load.Concurrency")).GetAttribute("aria-invalid"));
        Assert.Contains("invalid", page.Find(Id("Load.Concurrency")).ClassList);
        Assert.Equal("true", page.Find(Id("Target.Cosmos.Endpoint")).GetAttribute("aria-invalid"));
        // Fields that break no rule, the other input of the endpoint's section included, are not marked.
        Assert.Equal(["Load.Concurrency", "Target.Cosmos.Endpoint"], page.FindAll("[aria-invalid='true']").Select(e => e.Id!).Order(StringComparer.Ordinal).ToArray());
    }

    [Fact]
    public async Task Form_TargetWithoutBatches_HasNoBatchFieldAndNoBatchMessage()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new?preset=L3");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");
        Assert.Equal("100", page.Find(Id("Load.BatchSize")).GetAttribute("value"));

        // From Table Storage's batches of 100 to Cosmos DB for NoSQL, which writes a document per request.
        await page.Find(Id("Target.Kind")).ChangeAsync(nameof(TargetKind.CosmosSql));

        Assert.Empty(page.FindAll(Id("Load.BatchSize")));
        Assert.Empty(page.FindAll(".validation-message[data-field='Load.BatchSize']"));
        Assert.DoesNotContain("batch", string.Concat(page.FindAll(".validation-message").Select(m => m.TextContent)), StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Form_ShowsHowLongTheRunWillTake_BeforeItIsLaunched()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        await page.Find(Id("Stop.DurationSeconds")).ChangeAsync("90");

        Assert.Equal("Takes 1 min 30 s", page.Find("#run-length").TextContent.Trim());

        // A broken stop rule gives no length (a duration of -5 s is not "under a second").
        await page.Find(Id("Stop.DurationSeconds")).ChangeAsync("-5");

        Assert.Equal("Takes — (fix the stop rules first)", page.Find("#run-length").TextContent.Trim());
        Assert.Equal("1 setting to fix before saving.", page.Find("#error-count").TextContent.Trim());
    }

    [Fact]
    public async Task Form_ShowsEveryChoiceInWords_NeverItsIdentifier()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("profiles/new");
        var page = context.Render<ProfileEdit>();
        page.WaitForElement("#save-profile");

        var loadModels = page.FindAll($"{Id("Load.Model")} option").Select(o => o.TextContent.Trim()).ToArray();
        var shapes = page.FindAll($"{Id("Workload.Shape")} option").Select(o => o.TextContent.Trim()).ToArray();

        Assert.Contains("Closed loop", loadModels);
        Assert.Contains("Open loop", loadModels);
        Assert.Contains("Small DTO", shapes);
        Assert.Contains("Performance data", shapes);
        Assert.Equal("OpenLoop", page.Find($"{Id("Load.Model")} option[value='OpenLoop']").GetAttribute("value"));
        foreach (var identifier in new[] { "ClosedLoop", "OpenLoop", "SmallDto", "PerformanceData", "BulkRecord" })
        {
            Assert.DoesNotContain(">" + identifier + "<", page.Markup, StringComparison.Ordinal);
            Assert.DoesNotContain(identifier + " ≈", page.Markup, StringComparison.Ordinal);
        }
    }

    /// <summary>An editor left open in another tab while the profile is deleted: Save and run (or Save) says so, saves
    /// nothing (the profile is not created again) and starts no run.</summary>
    [Theory]
    [InlineData("#save-and-run")]
    [InlineData("#save-profile")]
    public async Task Edit_ProfileDeletedInAnotherTab_SavesNothingStartsNothing_AndSaysSo(string button)
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var id = await profiles.SaveAsync(0, new ProfileDraft(new RunPlan { Name = "Nightly" }), TestActors.Admin, CancellationToken.None);
        var page = context.Render<ProfileEdit>(parameters => parameters.Add(p => p.Id, id));
        page.WaitForElement("#save-profile");
        Assert.True(await profiles.DeleteAsync(id, TestActors.Admin, CancellationToken.None));

        await page.Find(Id("Load.Concurrency")).ChangeAsync("40");
        await page.Find(button).ClickAsync(new MouseEventArgs());

        Assert.Contains("“Nightly” was deleted", page.Find("#profile-message").TextContent, StringComparison.Ordinal);
        Assert.Contains("nothing was saved and no run was started", page.Find("#profile-message").TextContent, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Empty(await db.Profiles.ToListAsync());
        Assert.Empty(await db.Runs.ToListAsync());
        Assert.Empty(context.Jobs.Enqueued);
        Assert.Empty(context.NavigatedTo);
    }

    private static string Id(string id) => $"[id='{id}']";
}
