using System.Globalization;
using System.Net;
using BenchEngine.Running;
using BenchEngine.Workloads;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>The installation's limits at launch, through the HTTP API of the real app (SQLite, Hangfire, the simulator).</summary>
[IntegrationTest]
public sealed class InstallationLimitsApiTests
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    [Theory]
    [MemberData(nameof(OverLimitCases.Fields), MemberType = typeof(OverLimitCases))]
    public async Task StartRun_Returns400NamingTheFieldAndQueuesNothing_WhenThePlanIsOverAnAdministratorsLimit(string field)
    {
        var (limit, plan) = OverLimitCases.For(field);
        await using var host = await DashboardHost.StartAsync();
        Assert.Empty(await host.Get<InstallationSettingsService>().SaveAsync(limit, TestActors.Admin, CancellationToken.None));
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan });

        var problem = await AssertProblemAsync(response, HttpStatusCode.BadRequest);
        var message = problem["errors"]![field]![0]!.GetValue<string>();
        Assert.StartsWith("the installation allows at most ", message, StringComparison.Ordinal);
        Assert.Contains("(set by an administrator)", message, StringComparison.Ordinal);
        Assert.Equal(0, (await GetJsonAsync(http, "api/runs"))["total"]!.GetValue<int>());
    }

    [Fact]
    public async Task StartRun_IsCutAtTheMaximumDuration_WhenThePlanGivesOnlyACount()
    {
        await using var host = await DashboardHost.StartAsync();
        await host.Get<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxDurationSeconds = 2 }, TestActors.Admin, CancellationToken.None);
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        // 1,000,000 documents at 50 a second would take five and a half hours.
        var plan = new RunPlan
        {
            Name = "count only",
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50 },
            Stop = new StopOptions { TotalDocuments = 1_000_000 },

            // What this test is about is the cap: the plan judges its own unsent share, which a busy machine may raise.
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 100 },
        };

        using var response = await PostJsonAsync(http, "api/runs", new { plan });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var id = (await ReadAsync(response))["id"]!.GetValue<long>();
        var run = await host.WaitUntilEndedAsync(id, RunTimeout);
        Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
        Assert.Equal(2, run.DurationCapSeconds);
        // The run's own clock stops issuing at 2 s; the stop's grace period for requests in flight follows.
        Assert.InRange(run.ElapsedSeconds!.Value, 2, 60);
        Assert.Equal("cut at the installation's maximum run duration, 2 s (set by an administrator; the plan gave no duration)", run.StopReason);
        Assert.Null(RunPlan.FromJson(run.PlanJson).Stop.DurationSeconds);
    }

    [Fact]
    public async Task StartRun_IsCutAtTheMaximumDuration_WhenThePlanGivesNeitherDurationNorCount()
    {
        await using var host = await DashboardHost.StartAsync();
        await host.Get<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxDurationSeconds = 2 }, TestActors.Admin, CancellationToken.None);
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        // A CSV file is the one workload that may say neither: it ends with the file, here after 200 s at 100 rows a second.
        var rows = string.Join('\n', ["Id,Name", .. Enumerable.Range(1, 20_000).Select(i => string.Create(CultureInfo.InvariantCulture, $"{i},row {i}"))]) + "\n";
        var fileId = await CsvUploads.UploadAsync(http, rows, "rows.csv");
        var plan = new RunPlan
        {
            Name = "whole file",
            Workload = new WorkloadOptions { Shape = DocumentShape.CsvFile, CsvFileId = fileId },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 100 },
            Stop = new StopOptions(),

            // What this test is about is the cap: the plan judges its own unsent share, which a busy machine may raise.
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 100 },
        };

        using var response = await PostJsonAsync(http, "api/runs", new { plan });

        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var run = await host.WaitUntilEndedAsync((await ReadAsync(response))["id"]!.GetValue<long>(), RunTimeout);
        Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
        // The run's own clock stops issuing at 2 s; the stop's grace period for requests in flight follows.
        Assert.InRange(run.ElapsedSeconds!.Value, 2, 60);
        Assert.StartsWith("cut at the installation's maximum run duration, 2 s", run.StopReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StartRun_StopsAtTheMaximumDocuments_WhenThePlanGivesOnlyADuration()
    {
        await using var host = await DashboardHost.StartAsync();
        await host.Get<InstallationSettingsService>().SaveAsync(new InstallationSettings { MaxDocuments = 100 }, TestActors.Admin, CancellationToken.None);
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);

        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("duration only", seconds: 60) });

        var run = await host.WaitUntilEndedAsync((await ReadAsync(response))["id"]!.GetValue<long>(), RunTimeout);
        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(100, run.DocumentCap);
        Assert.Equal(100, (await host.SecondsAsync(run.Id)).Sum(s => s.Ok));
        Assert.Equal("cut at the installation's maximum of 100 documents (set by an administrator; the plan gave no count)", run.StopReason);
    }
}
