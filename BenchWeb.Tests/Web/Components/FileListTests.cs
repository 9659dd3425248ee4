using System.Text;
using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Components.Layout;
using BenchWeb.Components.Pages.Files;
using BenchWeb.Guard.Security;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Uploads;
using Bunit;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Forms;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

/// <summary>The files page (<c>/files</c>) over the app's services and a real SQLite file.</summary>
[UnitTest]
public sealed class FileListTests
{
    [Fact]
    public async Task Upload_AsRunner_StoresTheFileAndListsIt()
    {
        await using var context = new BenchWebComponentContext();
        context.SignInAs(BenchWebRoles.Runner);
        var page = context.Render<FileList>();
        page.WaitForElement("#upload-file");

        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(CsvUploads.Flights(12), "jan flights.csv"));

        page.WaitForAssertion(() => Assert.Contains("Stored “jan flights.csv” as file #1: 12 rows of 5 columns.", page.Find("#upload-message").TextContent, StringComparison.Ordinal));
        var row = page.Find("tr[data-file-id='1']");
        Assert.Contains("jan flights.csv", row.TextContent, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        var file = await db.UploadedFiles.SingleAsync();
        Assert.Equal(UserDirectory.LocalId("test Runner"), file.UploadedBy);
        Assert.Equal(CsvUploads.Flights(12), await File.ReadAllTextAsync(Path.Combine(context.Services.GetRequiredService<CsvUploadStore>().Folder, file.StoredName)));
        Assert.Empty(page.FindAll(".delete-file"));
    }

    [Fact]
    public async Task Upload_NotCsv_ShowsTheReasonAndStoresNothing()
    {
        await using var context = new BenchWebComponentContext();
        var page = context.Render<FileList>();
        page.WaitForElement("#upload-file");

        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromBinary([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0x0D], "holiday.png"));

        page.WaitForAssertion(() => Assert.Contains("holiday.png was not stored: The file contains NUL bytes", page.Find("#upload-error").TextContent, StringComparison.Ordinal));
        Assert.Equal("file", page.Find("#upload-error").GetAttribute("data-field"));
        Assert.NotNull(page.Find("#no-files"));
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(0, await db.UploadedFiles.CountAsync());
    }

    [Fact]
    public async Task Page_AsViewer_ListsTheFilesWithoutUploadOrDelete()
    {
        await using var context = new BenchWebComponentContext();
        await UploadAsync(context, "shared.csv");
        context.SignInAs(BenchWebRoles.Viewer);

        var page = context.Render<FileList>();
        page.WaitForElement("tr[data-file-id='1']");

        Assert.Empty(page.FindAll("#upload-file"));
        Assert.Empty(page.FindAll(".delete-file"));
        Assert.Contains("shared.csv", page.Find("#files").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Delete_AsAdmin_RemovesAnUnusedFileAndRefusesOneAProfileNames()
    {
        await using var context = new BenchWebComponentContext();
        var used = await UploadAsync(context, "used.csv");
        var unused = await UploadAsync(context, "unused.csv");
        var form = new ProfileDraft(new RunPlan { Name = "BTS January", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = used } });
        var profileId = await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, form, TestActors.Runner, CancellationToken.None);
        var page = context.Render<FileList>();
        page.WaitForElement($"tr[data-file-id='{used}']");
        Assert.Contains($"profile {profileId} “BTS January”", page.Find($"tr[data-file-id='{used}']").TextContent, StringComparison.Ordinal);

        await page.Find($"tr[data-file-id='{used}'] .delete-file").ClickAsync(new MouseEventArgs());
        await page.Find($"tr[data-file-id='{used}'] .confirm-delete").ClickAsync(new MouseEventArgs());
        await page.Find($"tr[data-file-id='{unused}'] .delete-file").ClickAsync(new MouseEventArgs());
        await page.Find($"tr[data-file-id='{unused}'] .confirm-delete").ClickAsync(new MouseEventArgs());

        page.WaitForAssertion(() => Assert.Empty(page.FindAll($"tr[data-file-id='{unused}']")));
        Assert.NotNull(page.Find($"tr[data-file-id='{used}']"));
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal([used], await db.UploadedFiles.Select(f => f.Id).ToListAsync());
        Assert.Single(Directory.GetFiles(context.Services.GetRequiredService<CsvUploadStore>().Folder));
    }

    [Fact]
    public async Task Delete_FileNamedByAProfile_SaysWhichProfile()
    {
        await using var context = new BenchWebComponentContext();
        var used = await UploadAsync(context, "used.csv");
        var profileId = await context.Services.GetRequiredService<ProfileService>().SaveAsync(0, new ProfileDraft(new RunPlan { Name = "BTS January", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = used } }), TestActors.Runner, CancellationToken.None);
        var page = context.Render<FileList>();
        page.WaitForElement($"tr[data-file-id='{used}']");

        await page.Find(".delete-file").ClickAsync(new MouseEventArgs());
        await page.Find(".confirm-delete").ClickAsync(new MouseEventArgs());

        page.WaitForAssertion(() => Assert.Contains($"File #{used} is needed by profile {profileId} “BTS January”", page.Find("#upload-error").TextContent, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(BenchWebRoles.Viewer, false)]
    [InlineData(BenchWebRoles.Runner, true)]
    [InlineData(BenchWebRoles.Admin, true)]
    public async Task Navigation_FilesLink_IsListedForRunners(string role, bool listed)
    {
        await using var context = new BenchWebComponentContext();
        context.SignInAs(role);

        var layout = context.Render<MainLayout>(parameters => parameters.Add(l => l.Body, (RenderFragment)(_ => { })));

        Assert.Equal(listed, layout.FindAll("nav a[href='files']").Count == 1);
    }

    private static async Task<long> UploadAsync(BenchWebComponentContext context, string name)
    {
        var result = await context.Services.GetRequiredService<CsvUploadStore>()
            .SaveAsync(new MemoryStream(Encoding.UTF8.GetBytes(CsvUploads.Flights(3))), name, TestActors.Runner, CancellationToken.None);
        return result.File!.Id;
    }
}
