using System.Diagnostics;
using System.Net;
using BenchEngine.Running;
using BenchWeb.Extensions;
using BenchWeb.Jobs;
using BenchWeb.Runs;
using BenchWeb.Tests.Support;
using Hangfire;
using Hangfire.States;
using Hangfire.Storage;
using Microsoft.Extensions.Options;

namespace BenchWeb.Tests.Web.Jobs;

/// <summary>Runs go through Hangfire: one job per run on the benchmarks queue, never retried, cancelled through
/// Hangfire's own job cancellation, as many at once as <c>MaxConcurrentRuns</c> says.</summary>
public sealed class RunJobsTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Run_LaunchedInTheApp_ExecutesAsAHangfireJobThatSucceeds()
    {
        await using var app = new BenchWebFactory();
        var runId = await app.Get<RunService>().StartAsync(new RunPlan { Name = "via hangfire", Stop = new StopOptions { TotalDocuments = 300 } }, null, null, CancellationToken.None);
        var run = await app.Services.WaitUntilEndedAsync(runId, Timeout);

        Assert.Equal(RunStatus.Completed, run.Status);
        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        await Eventually.TrueAsync(() => Task.FromResult(StateOf(monitor, run.JobId!) == SucceededState.StateName), Timeout, "the job to succeed");
        var job = monitor.JobDetails(run.JobId);
        Assert.Equal(typeof(RunBenchmarkJob), job.Job.Type);
        Assert.Equal(runId, job.Job.Args[0]);
        Assert.Contains(job.History, h => h.StateName == EnqueuedState.StateName && h.Data["Queue"] == RunBenchmarkJob.Queue);
        Assert.Contains(job.History, h => h.StateName == ProcessingState.StateName);
    }

    [Fact]
    public async Task FailingJob_IsNeverRetried()
    {
        await using var app = new BenchWebFactory();
        var jobs = app.Get<IBackgroundJobClient>();

        var jobId = jobs.Create(() => ThrowingJob.Execute(), new EnqueuedState(RunBenchmarkJob.Queue));

        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        await Eventually.TrueAsync(() => Task.FromResult(StateOf(monitor, jobId) == FailedState.StateName), Timeout, "the job to fail");
        await Task.Delay(TimeSpan.FromSeconds(2));
        Assert.Equal(FailedState.StateName, StateOf(monitor, jobId));
        Assert.Single(monitor.JobDetails(jobId).History, h => h.StateName == ProcessingState.StateName);
        Assert.Equal(0, monitor.ScheduledCount());
    }

    [Fact]
    public async Task CancelJob_WithoutTheRunsCancelRequest_StopsTheRunThroughHangfireWithinTwoSeconds()
    {
        await using var app = new BenchWebFactory();
        var runId = await app.Get<RunService>().StartAsync(new RunPlan { Name = "cancelled by hangfire", Stop = new StopOptions { DurationSeconds = 120 } }, null, null, CancellationToken.None);
        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(runId)).Status == RunStatus.Running, Timeout, "the run to start");
        var jobId = (await app.Services.RunAsync(runId)).JobId!;

        var clock = Stopwatch.StartNew();
        Assert.True(await app.Get<IRunJobClient>().CancelAsync(jobId, CancellationToken.None));
        var run = await app.Services.WaitUntilEndedAsync(runId, Timeout);
        clock.Stop();

        Assert.Equal(RunStatus.Cancelled, run.Status);
        Assert.Null(run.CancelRequestedAt);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(3.5), $"stopped after {clock.Elapsed.TotalSeconds:N1} s");
        Assert.Equal(DeletedState.StateName, StateOf(app.Get<JobStorage>().GetMonitoringApi(), jobId));
    }

    [Fact]
    public async Task Server_HasAWorkerPerConcurrentRun_AndRunsThatManyAtOnce()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:MaxConcurrentRuns"] = "2" });
        var monitor = app.Get<JobStorage>().GetMonitoringApi();
        var runs = app.Get<RunService>();
        var plan = new RunPlan { Name = "side by side", Stop = new StopOptions { DurationSeconds = 30 } };

        var first = await runs.StartAsync(plan, null, null, CancellationToken.None);
        var second = await runs.StartAsync(plan, null, null, CancellationToken.None);
        var third = await runs.StartAsync(plan, null, null, CancellationToken.None);

        await Eventually.TrueAsync(async () => (await app.Services.RunAsync(first)).Status == RunStatus.Running && (await app.Services.RunAsync(second)).Status == RunStatus.Running, Timeout, "two runs running");
        var server = Assert.Single(monitor.Servers());
        Assert.Equal(2, server.WorkersCount);
        Assert.Equal([RunBenchmarkJob.Queue], server.Queues);
        Assert.Equal(RunStatus.Queued, (await app.Services.RunAsync(third)).Status);
        foreach (var id in new[] { third, first, second })
        {
            await runs.CancelAsync(id, CancellationToken.None);
        }

        Assert.Equal(RunStatus.Cancelled, (await app.Services.WaitUntilEndedAsync(first, Timeout)).Status);
        Assert.Equal(RunStatus.Cancelled, (await app.Services.WaitUntilEndedAsync(second, Timeout)).Status);
        Assert.Null((await app.Services.RunAsync(third)).StartedAt);
    }

    [Fact]
    public async Task Dashboard_LocalRequest_ShowsTheRunsJob()
    {
        await using var host = await DashboardHost.StartAsync();
        var runId = await host.Get<RunService>().StartAsync(new RunPlan { Name = "shown in hangfire", Stop = new StopOptions { TotalDocuments = 200 } }, null, null, CancellationToken.None);
        var run = await host.WaitUntilEndedAsync(runId, Timeout);
        using var http = new HttpClient { BaseAddress = host.BaseAddress };

        var page = await http.GetStringAsync($"hangfire/jobs/details/{run.JobId}");

        Assert.Contains($"Benchmark run {runId}", page, StringComparison.Ordinal);
        Assert.Contains("Succeeded", page, StringComparison.Ordinal);

        // Read-only: a form post that would run the benchmark's job again is refused and changes nothing.
        using var requeue = new FormUrlEncodedContent([new("jobs[]", run.JobId!)]);
        var refused = await http.PostAsync(new Uri("hangfire/jobs/succeeded/requeue", UriKind.Relative), requeue);
        Assert.False(refused.IsSuccessStatusCode, $"requeue answered {(int)refused.StatusCode}");
        await Task.Delay(TimeSpan.FromSeconds(1));
        Assert.Equal(SucceededState.StateName, StateOf(host.Get<JobStorage>().GetMonitoringApi(), run.JobId!));
        Assert.Equal(RunStatus.Completed, (await host.RunAsync(runId)).Status);
        var moved = await new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = host.BaseAddress }.GetAsync(new Uri("jobs", UriKind.Relative));
        Assert.Equal(HttpStatusCode.MovedPermanently, moved.StatusCode);
        Assert.Equal(JobsExtensions.DashboardPath, moved.Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task Dashboard_RequestNotFromThisMachine_IsRefused()
    {
        // The test server's requests carry no remote address: not a local request.
        await using var app = new BenchWebFactory();
        using var http = app.CreateClient();

        var response = await http.GetAsync(new Uri("hangfire", UriKind.Relative));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.DoesNotContain("Benchmark run", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Start_UnknownJobStorage_FailsNamingTheSettingAndWhatIsKnown()
    {
        await using var app = new BenchWebFactory(new Dictionary<string, string?> { ["BenchWeb:JobStorage"] = "Redis" });

        var ex = Assert.Throws<OptionsValidationException>(() => app.Services);

        Assert.Contains("BenchWeb:JobStorage is 'Redis'; this build knows InMemory.", ex.Message, StringComparison.Ordinal);
    }

    private static string? StateOf(IMonitoringApi monitor, string jobId) => monitor.JobDetails(jobId)?.History.FirstOrDefault()?.StateName;
}
