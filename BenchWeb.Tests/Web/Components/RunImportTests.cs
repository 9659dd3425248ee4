using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Runs;
using BenchWeb.Security;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Forms;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class RunImportTests
{
    [Fact]
    public async Task Import_SameFileTwice_SaysTheRunIsThereAlreadyAndStoresNoCopy()
    {
        await using var context = new BenchWebComponentContext();
        context.SignInAs(BenchWebRoles.Runner);
        var original = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "to share"), SeededRuns.Seconds(3, 500, 6));
        var export = RunTransfer.ToJson((await context.Services.GetRequiredService<RunTransfer>().ExportAsync(original, CancellationToken.None))!);

        var page = context.Render<RunImport>();
        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(export, "run.json"));
        page.WaitForAssertion(() => Assert.Matches(@"runs/\d+$", context.NavigatedTo[^1]));
        var imported = long.Parse(context.NavigatedTo[^1].Split('/')[^1], System.Globalization.CultureInfo.InvariantCulture);

        page = context.Render<RunImport>();
        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(export, "run.json"));

        page.WaitForAssertion(() => Assert.Contains($"This run was imported already, as run #{imported}", page.Find("#import-duplicate").TextContent, StringComparison.Ordinal));
        Assert.Equal($"runs/{imported}", page.Find("#import-duplicate a").GetAttribute("href"));
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(2, db.Runs.Count());
    }

    [Fact]
    public async Task Import_NotJson_NamesTheLineAndColumn()
    {
        await using var context = new BenchWebComponentContext();
        context.SignInAs(BenchWebRoles.Runner);
        var page = context.Render<RunImport>();

        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText("{\n  \"runId\": 12,\n  oops\n}", "broken.json"));

        page.WaitForAssertion(() => Assert.Contains("Line 3, column 3 of the document:", page.Find("#import-errors").TextContent, StringComparison.Ordinal));
    }
}
