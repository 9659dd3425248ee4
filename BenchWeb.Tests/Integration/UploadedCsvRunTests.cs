using System.Text;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using BenchWeb.Uploads;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Integration;

/// <summary>Runs of uploaded CSV files through the hosted dashboard: its SQLite file, its job scheduler, Azurite as the
/// target; and what a run that cannot read its file records and logs.</summary>
[Collection(AzuriteCollection.Name)]
[IntegrationTest]
public sealed class UploadedCsvRunTests(AzuriteServer azurite) : IDisposable
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(90);

    private readonly string _serverFiles = Directory.CreateTempSubdirectory("benchweb-server-files-").FullName;

    [Fact]
    [Slow]
    public async Task Run_UploadedFileToAzurite_LandsExactlyItsRows()
    {
        await using var host = await DashboardHost.StartAsync();
        var file = await UploadAsync(host.Services, CsvUploads.Flights(2_345));
        var form = new ProfileDraft(new RunPlan
        {
            Name = "BTS file on azurite",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = "t" + Guid.NewGuid().ToString("N")[..16] } },
            Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = file.Id },
            Load = new LoadOptions { Concurrency = 8 },
            // No stop rule: the run ends with the file.
            Stop = new StopOptions(),
        });
        form.WithNewSecret(ProfileForms.TablesConnectionString, azurite.ConnectionString);
        var profiles = host.Get<ProfileService>();
        var profileId = await profiles.SaveAsync(0, form, TestActors.Runner, CancellationToken.None);
        var plan = RunPlan.FromJson((await host.Get<ProfileReader>().FindAsync(profileId, CancellationToken.None))!.PlanJson);

        var runId = await host.Get<RunService>().StartAsync(plan, profileId, null, TestActors.Runner, CancellationToken.None);
        var run = await host.WaitUntilEndedAsync(runId, RunTimeout);

        Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
        Assert.Equal("the workload ended (end of file)", run.StopReason);
        Assert.Equal(file.RowCount, (await host.SecondsAsync(runId)).Sum(s => s.Ok));
        Assert.Equal(2_345, await azurite.CountEntitiesAsync(plan.Target.Tables.TableName));
        Assert.Equal(file.Id, RunPlan.FromJson(run.PlanJson).Workload.CsvFileId);
        Assert.DoesNotContain("csvPath", run.PlanJson, StringComparison.Ordinal);
        Assert.DoesNotContain(file.StoredName, run.PlanJson, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_StoredFileTurnedBadAfterItsCheck_FailsWithoutQuotingItOrNamingItsPathInReasonOrLogs()
    {
        var logs = new CapturedLogs();
        await using var app = new BenchWebFactory(services: services => services.AddSingleton<ILoggerProvider>(logs));
        var store = app.Get<CsvUploadStore>();
        var file = await UploadAsync(app.Services, CsvUploads.Flights(50));
        // The stored copy changed on the server's disk after it was checked: its second row has a stray quote.
        await File.WriteAllTextAsync(Path.Combine(store.Folder, file.StoredName), $"Origin,Dest\nSEA,LAX\nATL,OR\"D {CsvUploads.SecretLine}\n");

        var runId = await app.Get<RunService>().StartAsync(CsvPlan(file.Id), null, null, TestActors.Runner, CancellationToken.None);
        var run = await app.Services.WaitUntilEndedAsync(runId, RunTimeout);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains($"Uploaded file {file.Id} could not be read: line 3, field 2 of the CSV file is not valid CSV: a quote inside a field that is not quoted, or a quoted field that is never closed.",
            run.FailureReason, StringComparison.Ordinal);
        AssertSaysNothingOfTheFile([run.FailureReason, run.FirstError, run.StopReason, .. logs.Lines], store.Folder, file.StoredName);
        Assert.Contains(logs.Lines, l => l.Contains($"Uploaded file {file.Id} stored", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Run_StoredFileGoneBeforeTheRunStarts_FailsAsNoUploadedFile()
    {
        await using var host = await DashboardHost.StartAsync();
        var store = host.Get<CsvUploadStore>();
        var file = await UploadAsync(host.Services, CsvUploads.Flights(5));
        var runId = await InsertQueuedRunAsync(host, CsvPlan(file.Id));
        File.Delete(Path.Combine(store.Folder, file.StoredName));

        await host.Get<RunExecutor>().ExecuteAsync(runId, CancellationToken.None);

        var run = await host.RunAsync(runId);
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Equal($"The plan is not valid: Workload.CsvFileId: No uploaded file {file.Id}.", run.FailureReason);
    }

    [Fact]
    public async Task Run_StoredPlanNamingAServerPath_FailsTheSameWhetherOrNotTheFileExists()
    {
        await using var host = await DashboardHost.StartAsync();
        var (existing, missing) = CsvUploads.ServerPaths(_serverFiles);
        var reasons = new List<string?>();

        foreach (var path in new[] { existing, missing })
        {
            // A run queued before uploads existed, its snapshot naming a path.
            var runId = await InsertQueuedRunAsync(host, new RunPlan { Name = "legacy", Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvPath = path } });
            await host.Get<RunExecutor>().ExecuteAsync(runId, CancellationToken.None);
            var run = await host.RunAsync(runId);
            Assert.Equal(RunStatus.Failed, run.Status);
            Assert.Empty(await host.SecondsAsync(runId));
            reasons.Add(run.FailureReason);
        }

        Assert.Equal($"The plan is not valid: Workload.CsvPath: {WebPlanRules.ServerPathMessage}", Assert.Single(reasons.Distinct()));
        AssertSaysNothingOfTheFile(reasons, _serverFiles, "server-secret");
    }

    private static RunPlan CsvPlan(long fileId) => new()
    {
        Name = "uploaded file",
        Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = fileId },
        Load = new LoadOptions { Concurrency = 2 },
        Stop = new StopOptions(),
    };

    private static async Task<UploadedFileEntity> UploadAsync(IServiceProvider services, string content)
    {
        var result = await services.GetRequiredService<CsvUploadStore>().SaveAsync(new MemoryStream(Encoding.UTF8.GetBytes(content)), "flights.csv", TestActors.Runner, CancellationToken.None);
        return result.File ?? throw new InvalidOperationException(result.Error?.ToString());
    }

    private static async Task<long> InsertQueuedRunAsync(DashboardHost host, RunPlan plan)
    {
        await using var db = await host.OpenDatabaseAsync();
        var run = new RunEntity { ProfileName = plan.Name, PlanJson = plan.ToJson(), Status = RunStatus.Queued, QueuedAt = TimeProvider.System.GetUtcNow() };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }

    private static void AssertSaysNothingOfTheFile(IEnumerable<string?> texts, string folder, string name)
    {
        foreach (var text in texts.OfType<string>())
        {
            Assert.DoesNotContain("TOP-SECRET", text, StringComparison.Ordinal);
            Assert.DoesNotContain(folder, text, StringComparison.Ordinal);
            Assert.DoesNotContain(name, text, StringComparison.Ordinal);
        }
    }

    public void Dispose() => Directory.Delete(_serverFiles, recursive: true);
}
