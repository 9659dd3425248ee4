using System.Diagnostics;
using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Execution;
using BenchWeb.Guard.Security;
using BenchWeb.Hosting;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using BenchWeb.Tests.Support;
using Hangfire;
using Hangfire.States;
using Hangfire.Storage;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Web.Jobs;

/// <summary>Runs go through Hangfire: one job per run on the benchmarks queue, never retried, cancelled through
/// Hangfire's own job cancellation, as many at once as <c>MaxConcurrentRuns</c> says.</summary>
[IntegrationTest]
public sealed class RunJobsTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Run_LaunchedInTheApp_ExecutesAsAHangfireJobThatSucceeds()
    {
        await using var app = new BenchWebFactory();
        var runId = await app.Get<RunService>().StartAsync(new RunPlan { Name = "via hangfire", Stop = new StopOptions { TotalDocuments = 300 } }, null, null, TestActors.Runner, CancellationToken.None);
        var run = await app.Services.WaitUntilEndedAsync(runId, Timeout);

        Assert.Equal(RunStatus.Completed, run.Status);
        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        await Eventually.TrueAsync(() => Task.FromResult(StateOf(monitor, run.JobId!) == SucceededState.StateName), Timeout, "the job to succeed");
        var job = monitor.JobDetails(run.JobId);
        Assert.Equal(typeof(RunBenchmarkJob), job.Job.Type);
        Assert.Equal(runId, job.Job.Args[0]);
        Assert.Contains(job.History, h => h.StateName == EnqueuedState.StateName && h.Data["Queue"] == RunBenchmarkJob.Queue);
        Assert.Contains(job.History, h => h.StateName == ProcessingState.StateName);

        // A cancel that arrives after the end leaves the job as it ended.
        Assert.False(await app.Get<IRunJobClient>().CancelAsync(run.JobId!, CancellationToken.None));
        Assert.Equal(SucceededState.StateName, StateOf(monitor, run.JobId!));
    }

    [Fact]
    public async Task FailingJob_IsNeverRetried()
    {
        await using var app = new BenchWebFactory();
        var jobs = app.Get<IBackgroundJobClient>();

        var jobId = jobs.Create(() => ThrowingJob.Execute(), new EnqueuedState(RunBenchmarkJob.Queue));

        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        await Eventually.TrueAsync(() => Task.FromResult(StateOf(monitor, jobId) == FailedState.StateName), Timeout, "the job to fail");

        // Hangfire's retry filter turns a failure into a scheduled retry as the failure is recorded, so a job that was
        // going to be retried never rests in Failed: no wait is needed to see that it was not.
        var history = monitor.JobDetails(jobId).History;
        Assert.Equal(FailedState.StateName, StateOf(monitor, jobId));
        Assert.Single(history, h => h.StateName == ProcessingState.StateName);
        Assert.DoesNotContain(history, h => h.StateName == ScheduledState.StateName);
        Assert.Equal(0, monitor.ScheduledCount());
    }

    [Fact]
    public async Task CancelJob_WithoutTheRunsCancelRequest_StopsTheRunThroughHangfire()
    {
        await using var app = new BenchWebFactory();
        var runId = await app.Get<RunService>().StartAsync(new RunPlan { Name = "cancelled by hangfire", Stop = new StopOptions { DurationSeconds = 120 } }, null, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(runId)).Status == RunStatus.Running, Timeout, "the run to start");
        var jobId = (await app.Services.RunAsync(runId)).JobId!;

        Assert.True(await app.Get<IRunJobClient>().CancelAsync(jobId, CancellationToken.None));
        var run = await app.Services.WaitUntilEndedAsync(runId, Timeout);

        Assert.Equal(RunStatus.Cancelled, run.Status);
        Assert.Null(run.CancelRequestedAt);
        // The cancel ended it, not its 120 s: its own clock stopped long before (however busy the machine, the wait for
        // Hangfire's once-a-second look and the run's stop take seconds, not a minute).
        Assert.True(run.ElapsedSeconds < 60, $"the run went on for {run.ElapsedSeconds:N1} s of its 120");
        Assert.Equal(DeletedState.StateName, StateOf(app.Get<JobStorage>().GetMonitoringApi(), jobId));
    }

    [Theory]
    [InlineData("CosmosSql")]
    [InlineData("TableStorage")]
    public async Task Cancel_WhileTheTargetIsStillOpening_EndsTheRunBeforeTheSdkGivesUp(string kindName)
    {
        var kind = new TargetKind(kindName);
        // An endpoint that accepts connections and never answers: the SDK's client waits in its start-up.
        await using var silent = new SilentServer();
        var secret = "BENCHWEB_TEST_SILENT_" + Guid.NewGuid().ToString("N");
        Environment.SetEnvironmentVariable(secret, kind == TargetKind.CosmosSql ? Convert.ToBase64String(new byte[64]) : silent.TableConnectionString());
        try
        {
            await using var app = new BenchWebFactory(ListedSecrets.Settings(secret, kind.Name, kind == TargetKind.CosmosSql ? "Target.Cosmos.KeySecret" : "Target.Tables.ConnectionStringSecret", "127.0.0.1"));
            var target = kind == TargetKind.CosmosSql
                ? new TargetOptions { Kind = kind, Cosmos = new CosmosOptions { Endpoint = silent.Endpoint, KeySecret = secret, ConnectionMode = CosmosConnectionMode.Gateway, LimitToEndpoint = true, RequestUnits = null } }
                : new TargetOptions { Kind = kind, Tables = new TableOptions { ConnectionStringSecret = secret } };
            var runs = app.Get<RunService>();
            var runId = await runs.StartAsync(new RunPlan { Name = "silent target", Target = target, Stop = new StopOptions { DurationSeconds = 60 } }, null, null, TestActors.Runner, CancellationToken.None);
            await silent.FirstAccepted.WaitAsync(Timeout);

            var clock = Stopwatch.StartNew();
            Assert.True(await runs.CancelAsync(runId, TestActors.Runner, CancellationToken.None));
            var run = await app.Services.WaitUntilEndedAsync(runId, Timeout);
            clock.Stop();

            Assert.Equal(RunStatus.Cancelled, run.Status);
            Console.WriteLine($"cancel during start-up ({kind}): ended {clock.Elapsed.TotalMilliseconds:N0} ms after the cancel");
            Assert.True(clock.Elapsed < Engine.Targets.TargetStartupTests.WellBeforeTheSdksGiveUp, $"ended {clock.Elapsed.TotalSeconds:N1} s after the cancel");
        }
        finally
        {
            Environment.SetEnvironmentVariable(secret, null);
        }
    }

    [Fact]
    public async Task Server_HasAWorkerPerConcurrentRun_AndRunsThatManyAtOnce()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:MaxConcurrentRuns"] = "2" });
        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        var runs = app.Get<RunService>();
        var plan = new RunPlan { Name = "side by side", Stop = new StopOptions { DurationSeconds = 30 } };

        var first = await runs.StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);
        var second = await runs.StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);
        var third = await runs.StartAsync(plan, null, null, TestActors.Runner, CancellationToken.None);

        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(first)).Status == RunStatus.Running && (await app.Services.RunAsync(second)).Status == RunStatus.Running, Timeout, "two runs running");
        var server = Assert.Single(monitor.Servers());
        Assert.Equal(2, server.WorkersCount);
        // Its own agent's queue first (shards of runs spread over agents), then the common one.
        Assert.Equal([app.Get<BenchWeb.Execution.AgentIdentity>().Queue, RunBenchmarkJob.Queue], server.Queues);
        Assert.Equal(RunStatus.Queued, (await app.Services.RunAsync(third)).Status);
        foreach (var id in new[] { third, first, second })
        {
            await runs.CancelAsync(id, TestActors.Runner, CancellationToken.None);
        }

        Assert.Equal(RunStatus.Cancelled, (await app.Services.WaitUntilEndedAsync(first, Timeout)).Status);
        Assert.Equal(RunStatus.Cancelled, (await app.Services.WaitUntilEndedAsync(second, Timeout)).Status);
        Assert.Null((await app.Services.RunAsync(third)).StartedAt);
    }

    [Fact]
    public async Task Dashboard_ForAnAdmin_ShowsTheRunsJobReadOnly()
    {
        await using var host = await DashboardHost.StartAsync();
        var runId = await host.Get<RunService>().StartAsync(new RunPlan { Name = "shown in hangfire", Stop = new StopOptions { TotalDocuments = 200 } }, null, null, TestActors.Runner, CancellationToken.None);
        var run = await host.WaitUntilEndedAsync(runId, Timeout);
        using var http = await host.CreateClientAsync(BenchWebRoles.Admin);

        var page = await http.GetStringAsync($"hangfire/jobs/details/{run.JobId}");

        Assert.Contains($"Benchmark run {runId}", page, StringComparison.Ordinal);
        Assert.Contains("Succeeded", page, StringComparison.Ordinal);

        // Read-only: a re-queue sent the way the dashboard's own page sends it (its antiforgery token and cookie) is
        // refused, and the benchmark's job is not run again.
        var tokenHeader = MetaContent(page, "csrf-header");
        var token = MetaContent(page, "csrf-token");
        using var requeue = new HttpRequestMessage(HttpMethod.Post, new Uri("hangfire/jobs/succeeded/requeue", UriKind.Relative))
        {
            Content = new FormUrlEncodedContent([new("jobs[]", run.JobId!)]),
        };
        requeue.Headers.Add(tokenHeader, token);
        var refused = await http.SendAsync(requeue);
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Equal(SucceededState.StateName, StateOf(host.Get<JobStorage>().GetMonitoringApi(), run.JobId!));
        Assert.Equal(RunStatus.Completed, (await host.RunAsync(runId)).Status);

        using var noRedirects = await host.CreateClientAsync(BenchWebRoles.Admin, new HttpClientHandler { AllowAutoRedirect = false });
        var moved = await noRedirects.GetAsync(new Uri("jobs", UriKind.Relative));
        Assert.Equal(HttpStatusCode.MovedPermanently, moved.StatusCode);
        Assert.Equal(JobsExtensions.DashboardPath, moved.Headers.Location?.OriginalString);
    }

    [Theory]
    [InlineData(BenchWebRoles.Viewer)]
    [InlineData(BenchWebRoles.Runner)]
    public async Task Dashboard_ForARoleBelowAdmin_IsRefused(string role)
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(role);

        var response = await http.GetAsync(new Uri("hangfire", UriKind.Relative));

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.DoesNotContain("Benchmark run", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Dashboard_WithoutSigningIn_SendsToTheSignInPage()
    {
        await using var app = new BenchWebFactory();
        using var http = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });

        var response = await http.GetAsync(new Uri("hangfire", UriKind.Relative));

        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        Assert.StartsWith("/signin", response.Headers.Location?.PathAndQuery, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_SharedModeWithoutItsDatabase_FailsNamingTheSetting()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:Mode"] = "Shared" });

        var ex = Assert.Throws<OptionsValidationException>(() => app.Services);

        Assert.Contains("Shared mode keeps runs and jobs in PostgreSQL: set ConnectionStrings:BenchDb", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cancel_BetweenEnqueueAndSavingTheJobId_StillTakesTheJobOffTheQueue()
    {
        await using var app = new BenchWebFactory(
            new Dictionary<string, string?> { ["BenchWeb:MaxConcurrentRuns"] = "1" },
            services => services.AddSingleton<IRunJobClient>(sp => new CancelDuringEnqueue(ActivatorUtilities.CreateInstance<HangfireRunJobClient>(sp), sp)));
        var runs = app.Get<RunService>();
        var blocker = await runs.StartAsync(new RunPlan { Name = "blocker", Stop = new StopOptions { DurationSeconds = 60 } }, null, null, TestActors.Runner, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(blocker)).Status == RunStatus.Running, Timeout, "the first run to start");
        ((CancelDuringEnqueue)app.Get<IRunJobClient>()).Armed = true;

        var runId = await runs.StartAsync(new RunPlan { Name = "cancelled while queuing", Stop = new StopOptions { TotalDocuments = 100 } }, null, null, TestActors.Runner, CancellationToken.None);

        var run = await app.Services.RunAsync(runId);
        Assert.Equal(RunStatus.Cancelled, run.Status);
        Assert.Equal(DeletedState.StateName, StateOf(app.Get<JobStorage>().GetMonitoringApi(), run.JobId!));
        await runs.CancelAsync(blocker, TestActors.Runner, CancellationToken.None);
        Assert.Null((await app.Services.WaitUntilEndedAsync(runId, Timeout)).StartedAt);
    }

    [Fact]
    public async Task Shutdown_WhileARunExecutes_EndsItInterruptedKeepingItsSeconds()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            await using var host = await DashboardHost.StartAsync(dataDirectory);
            var runId = await host.Get<RunService>().StartAsync(new RunPlan { Name = "stopped by shutdown", Stop = new StopOptions { DurationSeconds = 120 } }, null, null, TestActors.Runner, CancellationToken.None);
            await Eventually.TrueAsync(async () => (await host.SecondsAsync(runId)).Count >= 2, Timeout, "two seconds saved");

            await host.StopAsync();

            var run = await host.RunAsync(runId);
            Assert.Equal(RunStatus.Interrupted, run.Status);
            Assert.Equal(RunExecutor.InterruptedByRestart, run.FailureReason);
            var seconds = await host.SecondsAsync(runId);
            Assert.True(seconds.Count >= 2);
            Assert.Equal(Enumerable.Range(0, seconds.Count), seconds.Select(s => s.Index));
            Assert.Equal(System.Text.Json.JsonSerializer.Deserialize<BenchEngine.Metrics.RunSummary>(run.SummaryJson!, RunPlan.JsonOptions)!.TotalOk, seconds.Sum(s => s.Ok));
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    private static string MetaContent(string page, string name) =>
        System.Text.RegularExpressions.Regex.Match(page, $"<meta name=\"{name}\" content=\"([^\"]+)\"") is { Success: true } match
            ? System.Net.WebUtility.HtmlDecode(match.Groups[1].Value)
            : throw new InvalidOperationException($"The dashboard page has no {name}.");

    private static string? StateOf(IMonitoringApi monitor, string jobId) => monitor.JobDetails(jobId)?.History.FirstOrDefault()?.StateName;
}
