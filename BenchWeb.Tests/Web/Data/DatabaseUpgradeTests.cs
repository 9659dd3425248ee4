using BenchEngine.Running;
using BenchWeb.Guard.Secrets;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage.ValueConversion;

namespace BenchWeb.Tests.Web.Data;

/// <summary>A data folder written by the dashboard on EF Core 6.0.7 (<c>Fixtures/ef6-database</c>: three profiles,
/// a completed run with notes and tags, a cancelled run, their seconds, two encrypted secrets and the Data
/// Protection key that encrypted them) opens with today's version, migrates, and keeps everything.</summary>
[IntegrationTest]
public sealed class DatabaseUpgradeTests
{
    private static readonly string Fixture = Path.Combine(AppContext.BaseDirectory, "Web", "Data", "Fixtures", "ef6-database");

    [Fact]
    public async Task Start_OnADatabaseWrittenByEfCore6_MigratesAndKeepsEveryProfileRunSecondAndSecret()
    {
        var dataDirectory = CopyFixture();
        try
        {
            await using var host = await DashboardHost.StartAsync(dataDirectory);
            await using var db = await host.OpenDatabaseAsync();

            Assert.Empty(await db.Database.GetPendingMigrationsAsync());
            Assert.Equal(["Azurite flights", "Cosmos gateway", "Simulated quick"], await db.Profiles.OrderBy(p => p.Id).Select(p => p.Name).ToListAsync());
            Assert.Equal("a key stored in the dashboard", (await db.Profiles.SingleAsync(p => p.Id == 2)).Description);
            Assert.All(await db.Profiles.ToListAsync(), p => Assert.DoesNotContain(RunPlan.FromJson(p.PlanJson).Validate(), e => !e.Field.Contains("Endpoint", StringComparison.Ordinal)));

            var runs = await db.Runs.OrderBy(r => r.Id).ToListAsync();
            Assert.Equal([RunStatus.Completed, RunStatus.Cancelled], runs.Select(r => r.Status));
            Assert.Equal("fixture run: kept across the EF Core upgrade", runs[0].Notes);
            Assert.Equal(",fixture,v1,", runs[0].Tags);
            Assert.Equal(1239.9356520021981, runs[0].AverageThroughput);
            // Times are stored as DateTimeOffset binaries (to sort in SQLite): the same number reads as the same instant.
            Assert.Equal(new DateTimeOffsetToBinaryConverter().ConvertFromProvider(1309306512184889344L), runs[0].QueuedAt);
            Assert.Equal(2026, runs[0].QueuedAt.Year);
            Assert.All(runs, r => Assert.NotNull(r.SummaryJson));
            Assert.All(runs, r => Assert.NotNull(r.EnvironmentJson));

            var seconds = await db.RunSeconds.GroupBy(s => s.RunId).Select(g => new { RunId = g.Key, Count = g.Count(), Ok = g.Sum(s => s.Ok) }).OrderBy(g => g.RunId).ToListAsync();
            Assert.Equal([(1L, 5, 4973L), (2L, 3, 2764L)], seconds.Select(s => (s.RunId, s.Count, s.Ok)));

            // The secrets decrypt with the key ring kept beside the database.
            var store = host.Get<SecretStore>();
            Assert.Equal(
                "DefaultEndpointsProtocol=http;AccountName=fixture;AccountKey=Zml4dHVyZS1zZWNyZXQ=;TableEndpoint=http://127.0.0.1:10002/fixture;",
                (await store.CreateResolverAsync(1, new BenchEngine.Running.RunPlan(), CancellationToken.None))("profile-1-tables-connection-string"));
            Assert.Equal("Zml4dHVyZS1jb3Ntb3Mta2V5", (await store.CreateResolverAsync(2, new BenchEngine.Running.RunPlan(), CancellationToken.None))("profile-2-cosmos-key"));
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task Start_OnADatabaseWrittenByEfCore6_StoresNewRunsAfterTheOldOnes()
    {
        var dataDirectory = CopyFixture();
        try
        {
            await using var host = await DashboardHost.StartAsync(dataDirectory);
            var runs = host.Get<BenchWeb.Launch.RunService>();
            var plan = new RunPlan { Name = "after the upgrade", Stop = new StopOptions { TotalDocuments = 500 } };

            var runId = await runs.StartAsync(plan, profileId: 3, presetId: null, TestActors.Runner, CancellationToken.None);

            Assert.Equal(3, runId);
            var run = await host.WaitUntilEndedAsync(runId, TimeSpan.FromSeconds(60));
            Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
            await using var db = await host.OpenDatabaseAsync();
            Assert.Equal(500, await db.RunSeconds.Where(s => s.RunId == runId).SumAsync(s => s.Ok));
            Assert.Equal(2, await db.Runs.CountAsync(r => r.Id < runId));
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    private static string CopyFixture()
    {
        var target = DashboardHost.NewDataDirectory();
        foreach (var file in Directory.EnumerateFiles(Fixture, "*", SearchOption.AllDirectories))
        {
            var destination = Path.Combine(target, Path.GetRelativePath(Fixture, file));
            Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
            File.Copy(file, destination);
        }

        return target;
    }
}
