using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Guard.Security;
using BenchWeb.History;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Transfer;
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
        var exported = (await context.Services.GetRequiredService<RunReader>().ExportAsync(original, CancellationToken.None))!;

        // This installation's own run is here already.
        var page = context.Render<RunImport>();
        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(RunTransfer.ToJson(exported), "run.json"));
        page.WaitForAssertion(() => Assert.Contains($"This run ran here: it is run #{original}", page.Find("#import-duplicate").TextContent, StringComparison.Ordinal));

        // Another installation's (its number there is another).
        var export = RunTransfer.ToJson(exported with
        {
            RunId = original + 100,
            QueuedAt = exported.QueuedAt.AddHours(-1),
            StartedAt = exported.StartedAt?.AddHours(-1),
            EndedAt = exported.EndedAt?.AddHours(-1),
        });
        page = context.Render<RunImport>();
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
    public async Task Import_AHeadlessRunsResultFile_AsItWasWritten_StoresItAsAnImportedHeadlessRun_Once()
    {
        var folder = Directory.CreateTempSubdirectory("benchweb-import-headless-").FullName;
        try
        {
            var profile = Path.Combine(folder, "profile.json");
            var resultFile = Path.Combine(folder, "result.json");
            await File.WriteAllTextAsync(profile, new BenchEngine.Running.RunPlan { Name = "from CI", Stop = new BenchEngine.Running.StopOptions { TotalDocuments = 200 } }.ToJson());
            Assert.Equal(0, await BenchWeb.Headless.HeadlessCommand.RunAsync([profile, "--summary", resultFile], TextWriter.Null, TextWriter.Null, CancellationToken.None));
            var text = await File.ReadAllTextAsync(resultFile);
            await using var context = new BenchWebComponentContext();
            context.SignInAs(BenchWebRoles.Runner);

            var page = context.Render<RunImport>();
            page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(text, "result.json"));

            page.WaitForAssertion(() => Assert.Matches(@"runs/\d+$", context.NavigatedTo[^1]));
            await using (var db = await context.Databases.CreateDbContextAsync())
            {
                var run = db.Runs.Single();
                Assert.Equal(("from CI", BenchEngine.Running.RunStatus.Completed), (run.ProfileName, run.Status));
                Assert.StartsWith($"{Environment.MachineName}, a headless run, written ", run.ImportedFrom, StringComparison.Ordinal);
                Assert.Equal(200, db.RunSeconds.Where(s => s.RunId == run.Id).Sum(s => s.Ok));
            }

            page = context.Render<RunImport>();
            page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(text, "result.json"));

            page.WaitForAssertion(() => Assert.Contains("This run was imported already, as run #", page.Find("#import-duplicate").TextContent, StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
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

    [Fact]
    public async Task Import_ANaNLatency_ShowsTheErrorNamingTheField_NotAnEndlessSpinner()
    {
        await using var context = new BenchWebComponentContext();
        context.SignInAs(BenchWebRoles.Runner);
        var original = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "to share"), SeededRuns.Seconds(3, 500, 6));
        var export = System.Text.Json.Nodes.JsonNode.Parse(RunTransfer.ToJson((await context.Services.GetRequiredService<RunReader>().ExportAsync(original, CancellationToken.None))!))!;
        export["summary"]!["latency"]!["p99Ms"] = "NaN";
        var page = context.Render<RunImport>();

        page.FindComponent<InputFile>().UploadFiles(InputFileContent.CreateFromText(export.ToJsonString(), "nan.json"));

        page.WaitForAssertion(() => Assert.Contains("Summary.Latency.P99Ms", page.Find("#import-errors").TextContent, StringComparison.Ordinal));
        Assert.DoesNotContain("Importing", page.Markup, StringComparison.Ordinal);
        await using var db = await context.Databases.CreateDbContextAsync();
        Assert.Equal(1, db.Runs.Count());
    }
}
