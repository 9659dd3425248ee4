using System.Net;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>"Stop all runs and pause launching" through the HTTP API of the real app, across a restart.</summary>
[IntegrationTest]
public sealed class KillSwitchTests
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    [Slow]
    public async Task StopAll_CancelsRunningAndQueuedRunsAndRefusesLaunchesUntilResumed_AlsoAfterARestart()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            long running, queued;
            await using (var host = await DashboardHost.StartAsync(dataDirectory))
            {
                using var runner = await host.CreateClientAsync(BenchWebRoles.Runner);
                using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);
                running = await StartAsync(runner, ShortPlan("runaway", seconds: 120));
                queued = await StartAsync(runner, ShortPlan("next in line", seconds: 120));
                await Eventually.TrueAsync(async () => (await host.SecondsAsync(running)).Count >= 2, RunTimeout, "the first run to measure two seconds");

                using var stop = await PostJsonAsync(admin, "api/admin/kill-switch", new { reason = "the bill is running away" });

                Assert.Equal(HttpStatusCode.OK, stop.StatusCode);
                var state = await ReadAsync(stop);
                Assert.True(state["paused"]!.GetValue<bool>());
                Assert.Equal([queued, running], state["cancelledRuns"]!.AsArray().Select(n => n!.GetValue<long>()));
                var stopped = await host.WaitUntilEndedAsync(running, RunTimeout);
                Assert.Equal(RunStatus.Cancelled, stopped.Status);
                Assert.True(stopped.ElapsedSeconds < 60, $"The running run went on for {stopped.ElapsedSeconds:N1} s of its 120.");
                Assert.True((await host.SecondsAsync(running)).Count >= 2, "The cancelled run lost its seconds.");
                Assert.NotNull(stopped.SummaryJson);
                var never = await host.RunAsync(queued);
                Assert.Equal(RunStatus.Cancelled, never.Status);
                Assert.Equal("cancelled before it started", never.StopReason);

                await AssertRefusedAsync(runner);
            }

            await using (var restarted = await DashboardHost.StartAsync(dataDirectory))
            {
                using var runner = await restarted.CreateClientAsync(BenchWebRoles.Runner);
                using var admin = await restarted.CreateClientAsync(BenchWebRoles.Admin);
                await AssertRefusedAsync(runner);
                Assert.True((await GetJsonAsync(admin, "api/admin/kill-switch"))["paused"]!.GetValue<bool>());

                using var resume = await admin.DeleteAsync(new Uri("api/admin/kill-switch", UriKind.Relative));

                Assert.Equal(HttpStatusCode.OK, resume.StatusCode);
                Assert.False((await ReadAsync(resume))["paused"]!.GetValue<bool>());
                var id = await StartAsync(runner, ShortPlan("after the pause", seconds: 1));
                Assert.Equal(RunStatus.Completed, (await restarted.WaitUntilEndedAsync(id, RunTimeout)).Status);
            }
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task KillSwitchApi_ResumingWhatWasNeverPaused_SaysOpenWithoutADate_AndAPostWithoutABodyPausesKeepingTheFirstReason()
    {
        await using var host = await DashboardHost.StartAsync();
        using var admin = await host.CreateClientAsync(BenchWebRoles.Admin);

        using var resume = await admin.DeleteAsync(new Uri("api/admin/kill-switch", UriKind.Relative));
        var open = await ReadAsync(resume);
        using var first = await PostJsonAsync(admin, "api/admin/kill-switch", new { reason = "the bill is running away" });
        using var bare = await admin.PostAsync(new Uri("api/admin/kill-switch", UriKind.Relative), null);

        Assert.Equal(HttpStatusCode.OK, resume.StatusCode);
        Assert.False(open["paused"]!.GetValue<bool>());
        Assert.Null(open["changedAt"]);
        Assert.Equal(HttpStatusCode.OK, bare.StatusCode);
        var paused = await ReadAsync(bare);
        Assert.True(paused["paused"]!.GetValue<bool>());
        Assert.Equal("the bill is running away", paused["reason"]!.GetValue<string>());
    }

    [Theory]
    [InlineData(BenchWebRoles.Viewer)]
    [InlineData(BenchWebRoles.Runner)]
    public async Task KillSwitchApi_Returns403AndChangesNothing_WhenTheCallerIsNotAnAdmin(string role)
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(role);

        using var stop = await PostJsonAsync(http, "api/admin/kill-switch", new { reason = "not mine to say" });
        using var read = await http.GetAsync(new Uri("api/admin/kill-switch", UriKind.Relative));

        await AssertProblemAsync(stop, HttpStatusCode.Forbidden);
        await AssertProblemAsync(read, HttpStatusCode.Forbidden);
        Assert.False((await host.Get<BenchWeb.Guard.Administration.KillSwitch>().StateAsync(CancellationToken.None)).Engaged);
    }

    private static async Task<long> StartAsync(HttpClient http, RunPlan plan)
    {
        using var response = await PostJsonAsync(http, "api/runs", new { plan });
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        return (await ReadAsync(response))["id"]!.GetValue<long>();
    }

    private static async Task AssertRefusedAsync(HttpClient runner)
    {
        using var refused = await PostJsonAsync(runner, "api/runs", new { plan = ShortPlan("while paused", seconds: 1) });
        var problem = await AssertProblemAsync(refused, HttpStatusCode.Conflict);
        var detail = problem["detail"]!.GetValue<string>();
        Assert.StartsWith("Launching is paused", detail, StringComparison.Ordinal);
        Assert.Contains("“the bill is running away”", detail, StringComparison.Ordinal);
        Assert.Equal("the bill is running away", problem["reason"]!.GetValue<string>());
        Assert.Equal("test Admin", problem["pausedBy"]!.GetValue<string>());
    }
}
