using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard.Secrets;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support;
using Hangfire;
using Hangfire.States;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Integration;

/// <summary>Runs launched through the hosted dashboard: its SQLite file, its job scheduler, Azurite as the target.</summary>
[Collection(AzuriteCollection.Name)]
[IntegrationTest]
public class DashboardRunTests(AzuriteServer azurite)
{

    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Run_ThroughTheApp_PersistsSecondsWhoseOkSumEqualsEntitiesInTable()
    {
        await using var host = await DashboardHost.StartAsync();
        var (plan, profileId) = await TableProfileAsync(host, new LoadOptions { Concurrency = 8 }, new StopOptions { TotalDocuments = 3_000 });

        var runId = await host.Get<RunService>().StartAsync(plan, profileId, null, TestActors.Runner, CancellationToken.None);
        var run = await host.WaitUntilEndedAsync(runId, RunTimeout);

        Assert.True(run.Status == RunStatus.Completed, $"{run.Status}: {run.FailureReason}");
        var seconds = await host.SecondsAsync(runId);
        Assert.NotEmpty(seconds);
        Assert.Equal(Enumerable.Range(0, seconds.Count), seconds.Select(s => s.Index));
        Assert.Equal(3_000, seconds.Sum(s => s.Ok));
        Assert.Equal(3_000, await CountEntitiesAsync(plan));
        Assert.NotNull(run.SummaryJson);
        Assert.NotNull(run.EnvironmentJson);
        Assert.NotNull(run.StartedAt);
        Assert.NotNull(run.EndedAt);
        Assert.True(run.EndedAt >= run.StartedAt);
        Assert.Contains(SecretStore.NameFor(profileId, "tables-connection-string"), run.PlanJson, StringComparison.Ordinal);
        Assert.DoesNotContain(azurite.ConnectionString, run.PlanJson, StringComparison.Ordinal);
        Assert.DoesNotContain("AccountKey", run.PlanJson, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Cancel_WhileRunning_StopsTheLoadAndKeepsEverySecondMeasured()
    {
        await using var host = await DashboardHost.StartAsync();
        var (plan, profileId) = await TableProfileAsync(host, new LoadOptions { Concurrency = 4 }, new StopOptions { DurationSeconds = 120 });
        var runs = host.Get<RunService>();
        var runId = await runs.StartAsync(plan, profileId, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await host.SecondsAsync(runId)).Count >= 2, RunTimeout, "two seconds saved");

        Assert.True(await runs.CancelAsync(runId, TestActors.Runner, CancellationToken.None));
        var run = await host.WaitUntilEndedAsync(runId, RunTimeout);

        Assert.True(run.Status == RunStatus.Cancelled, $"{run.Status}: {run.FailureReason}");
        var seconds = await host.SecondsAsync(runId);
        Assert.Equal(Enumerable.Range(0, seconds.Count), seconds.Select(s => s.Index));
        // The last second closes once the load has stopped and in-flight writes returned, after the cancel request (both
        // clocks are the app's), and the cancel, not the run's 120 s, ended it: how soon is a busy machine's business.
        Assert.True(seconds[^1].ClosedAt >= run.CancelRequestedAt, $"the last second closed at {seconds[^1].ClosedAt:O}, before the cancel request");
        Assert.True(seconds[^1].ElapsedSeconds < 60, $"the run went on until {seconds[^1].ElapsedSeconds:F2} s of 120");
        Assert.Equal(seconds.Sum(s => s.Ok), await CountEntitiesAsync(plan));
        Assert.NotNull(run.SummaryJson);
        Assert.NotNull(run.EndedAt);
    }

    [Fact]
    public async Task Execute_RecordingTheEndFails_LeavesTheRunFailedNotRunning()
    {
        await using var host = await DashboardHost.StartAsync();
        long runId;
        await using (var db = await host.OpenDatabaseAsync())
        {
            // A second already saved under index 0 makes the job's own second 0 collide, during the run and again
            // when the job saves what is missing at the end.
            var run = new RunEntity { ProfileName = "collide", PlanJson = new RunPlan { Stop = new StopOptions { DurationSeconds = 2 } }.ToJson(), Status = RunStatus.Queued, QueuedAt = TimeProvider.System.GetUtcNow() };
            run.Seconds.Add(new RunSecondEntity { Index = 0, ElapsedSeconds = 1, DurationSeconds = 1, ClosedAt = TimeProvider.System.GetUtcNow() });
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            runId = run.Id;
        }

        await host.Get<RunExecutor>().ExecuteAsync(runId, CancellationToken.None);

        var ended = await host.RunAsync(runId);
        Assert.Equal(RunStatus.Failed, ended.Status);
        Assert.Contains("DbUpdateException", ended.FailureReason, StringComparison.Ordinal);
        Assert.NotNull(ended.EndedAt);
    }

    [Fact]
    public async Task Execute_RunAlreadyRunning_MarksItInterruptedWithoutRunningItAgain()
    {
        await using var host = await DashboardHost.StartAsync();
        var runId = await InsertRunAsync(host, RunStatus.Running, seconds: 0);

        await host.Get<RunExecutor>().ExecuteAsync(runId, CancellationToken.None);

        // Not run again: its 30 s plan would have saved seconds.
        var run = await host.RunAsync(runId);
        Assert.Equal(RunStatus.Interrupted, run.Status);
        Assert.Contains("not re-run", run.FailureReason, StringComparison.Ordinal);
        Assert.NotNull(run.EndedAt);
        Assert.Empty(await host.SecondsAsync(runId));
    }

    [Fact]
    public async Task Restart_RunLeftRunning_IsInterruptedAndKeepsItsSeconds()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            long runId;
            await using (var first = await DashboardHost.StartAsync(dataDirectory))
            {
                runId = await InsertRunAsync(first, RunStatus.Running, seconds: 1);
            }

            await using var second = await DashboardHost.StartAsync(dataDirectory);

            var run = await second.RunAsync(runId);
            Assert.Equal(RunStatus.Interrupted, run.Status);
            Assert.Equal(RunExecutor.InterruptedByRestart, run.FailureReason);
            Assert.NotNull(run.EndedAt);
            var seconds = await second.SecondsAsync(runId);
            Assert.Equal(0, Assert.Single(seconds).Index);
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task Cancel_WhileQueued_CancelsTheRunWhichNeverStarts()
    {
        await using var host = await DashboardHost.StartAsync(new Dictionary<string, string?> { ["BenchWeb:MaxConcurrentRuns"] = "1" });
        var runs = host.Get<RunService>();
        var plan = new RunPlan { Name = "long simulated", Stop = new StopOptions { DurationSeconds = 60 } };
        var firstId = await runs.StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await host.RunAsync(firstId)).Status == RunStatus.Running, RunTimeout, "the first run to start");
        var secondId = await runs.StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);

        Assert.True(await runs.CancelAsync(secondId, TestActors.Runner, CancellationToken.None));
        var queuedThenCancelled = await host.RunAsync(secondId);
        Assert.Equal(RunStatus.Cancelled, queuedThenCancelled.Status);
        Assert.True(await runs.CancelAsync(firstId, TestActors.Runner, CancellationToken.None));
        Assert.Equal(RunStatus.Cancelled, (await host.WaitUntilEndedAsync(firstId, TimeSpan.FromSeconds(10))).Status);

        // The second run's job gets its turn once the first ends; it must find the run cancelled and leave it.
        var monitor = host.Get<JobStorage>().GetMonitoringApi();
        await Eventually.TrueAsync(
            () => Task.FromResult(monitor.ProcessingCount() == 0 && monitor.EnqueuedCount(RunBenchmarkJob.Queue) == 0),
            TimeSpan.FromSeconds(30),
            "the queued run's job to be done");
        Assert.Equal(DeletedState.StateName, monitor.JobDetails((await host.RunAsync(secondId)).JobId).History[0].StateName);
        var second = await host.RunAsync(secondId);
        Assert.Equal(RunStatus.Cancelled, second.Status);
        Assert.Null(second.StartedAt);
        Assert.NotNull(second.CancelRequestedAt);
        Assert.NotNull(second.EndedAt);
        Assert.Empty(await host.SecondsAsync(secondId));
    }

    [Fact]
    public async Task Start_InvalidPlan_IsRejectedNamingTheFieldAndCreatesNoRun()
    {
        await using var host = await DashboardHost.StartAsync();
        var plan = new RunPlan { Name = "invalid", Load = new LoadOptions { Concurrency = 0 }, Stop = new StopOptions { TotalDocuments = 10 } };

        var ex = await Assert.ThrowsAsync<RunPlanValidationException>(() => host.Get<RunService>().StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None));

        Assert.Contains(ex.Errors, e => e.Field == "Load.Concurrency");
        await using var db = await host.OpenDatabaseAsync();
        Assert.Equal(0, await db.Runs.CountAsync());
    }

    [Fact]
    public async Task TwoDashboardsInOneProcess_EachRunsItsOwnRuns()
    {
        await using var first = await DashboardHost.StartAsync();
        await using var second = await DashboardHost.StartAsync();
        var plan = new RunPlan { Name = "short simulated", Stop = new StopOptions { TotalDocuments = 200 } };

        var firstId = await first.Get<RunService>().StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);
        var secondId = await second.Get<RunService>().StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);

        Assert.Equal(RunStatus.Completed, (await first.WaitUntilEndedAsync(firstId, RunTimeout)).Status);
        Assert.Equal(RunStatus.Completed, (await second.WaitUntilEndedAsync(secondId, RunTimeout)).Status);
    }

    private static string NewTableName() => "t" + Guid.NewGuid().ToString("N")[..16];

    /// <summary>A profile writing small DTOs to a new Azurite table, saved as a user does: the connection string
    /// typed into the form, stored encrypted for that profile. Returns its plan and id.</summary>
    private async Task<(RunPlan Plan, long ProfileId)> TableProfileAsync(DashboardHost host, LoadOptions load, StopOptions stop)
    {
        var form = new ProfileDraft(new RunPlan
        {
            Name = "dashboard on azurite",
            Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = NewTableName() } },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
            Load = load,
            Stop = stop,
        });
        form.WithNewSecret(ProfileForms.TablesConnectionString, azurite.ConnectionString);
        var profiles = host.Get<ProfileService>();
        var id = await profiles.SaveAsync(0, form, TestActors.Admin, CancellationToken.None);
        return (RunPlan.FromJson((await host.Get<ProfileReader>().FindAsync(id, CancellationToken.None))!.PlanJson), id);
    }

    /// <summary>Counted by the SDK's own client, independently of the target the run wrote through.</summary>
    private Task<long> CountEntitiesAsync(RunPlan plan) => azurite.CountEntitiesAsync(plan.Target.Tables.TableName);

    private static async Task<long> InsertRunAsync(DashboardHost host, RunStatus status, int seconds)
    {
        await using var db = await host.OpenDatabaseAsync();
        var now = TimeProvider.System.GetUtcNow();
        var run = new RunEntity
        {
            ProfileName = "left open",
            PlanJson = new RunPlan { Stop = new StopOptions { DurationSeconds = 30 } }.ToJson(),
            Status = status,
            QueuedAt = now.AddSeconds(-5),
            StartedAt = now.AddSeconds(-4),
        };
        for (var i = 0; i < seconds; i++)
        {
            run.Seconds.Add(new RunSecondEntity { Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = 100, OkRequests = 100, ClosedAt = now });
        }

        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }
}
