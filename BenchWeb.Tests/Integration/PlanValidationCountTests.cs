using System.Net;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchWeb.Guard.Security;
using BenchWeb.Headless;
using BenchWeb.Launch;
using BenchWeb.Tests.Support;
using BenchWeb.Uploads;
using Microsoft.Extensions.DependencyInjection;
using static BenchWeb.Tests.Integration.RunsApiTests;

namespace BenchWeb.Tests.Integration;

/// <summary>A plan is checked once per stage: once where a launch is asked for, once where its job starts, and the engine
/// runs the checked plan without checking it again.</summary>
[IntegrationTest]
[Collection(PlanValidationCollection.Name)]
public sealed partial class PlanValidationCountTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-checks-").FullName;

    [Fact]
    public async Task ApiLaunch_SimulatedRun_ChecksThePlanOnceInTheRequestAndOnceAtJobStart()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var checks = new PlanValidations();

        using var response = await PostJsonAsync(http, "api/runs", new { plan = ShortPlan("counted", seconds: 1) });
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var run = await WaitUntilEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());

        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.Equal(1, checks.By(PlanValidations.Launch));
        Assert.Equal(1, checks.By(PlanValidations.JobStart));
        Assert.Equal(0, checks.By(PlanValidations.Engine));
        Assert.Equal(2, checks.Total);
    }

    [Fact]
    public async Task Launch_OfAPlanCheckedAlready_ChecksItOnlyAtJobStart()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        var (checkedPlan, errors) = await host.Services.GetRequiredService<CsvUploadStore>().CheckAsync(ShortPlan("checked in the editor", seconds: 1), CancellationToken.None);
        Assert.Empty(errors);
        using var checks = new PlanValidations();

        var id = await host.Services.GetRequiredService<RunService>().StartAsync(checkedPlan!, profileId: null, presetId: null, TestActors.Runner, CancellationToken.None);
        var run = await WaitUntilEndedAsync(http, id);

        Assert.Equal("Completed", run["status"]!.GetValue<string>());
        Assert.Equal(0, checks.By(PlanValidations.Launch));
        Assert.Equal(1, checks.By(PlanValidations.JobStart));
        Assert.Equal(1, checks.Total);
    }

    [Fact]
    [Slow]
    public async Task ApiSweep_ChecksEachStepOnceAtLaunch_AndEachStepRunOnceWhenQueuedAndOnceAtItsStart()
    {
        await using var host = await DashboardHost.StartAsync();
        using var http = await host.CreateClientAsync(BenchWebRoles.Runner);
        using var checks = new PlanValidations();

        using var response = await PostJsonAsync(http, "api/sweeps", new { plan = ShortPlan("counted sweep", seconds: 1), sweep = new { setting = "Load.Concurrency", values = new[] { "1", "2" } } });
        Assert.Equal(HttpStatusCode.Accepted, response.StatusCode);
        var sweep = await SweepsApiTests.WaitUntilSweepEndedAsync(http, (await ReadAsync(response))["id"]!.GetValue<long>());

        // Every run of the sweep (a re-run too) is queued as a launch and started as a job.
        var runs = sweep["steps"]!.AsArray().Count;
        Assert.Equal(2, checks.By(PlanValidations.SweepLaunch));
        Assert.Equal(runs, checks.By(PlanValidations.Launch));
        Assert.Equal(runs, checks.By(PlanValidations.JobStart));
        Assert.Equal(0, checks.By(PlanValidations.Engine));
        Assert.Equal(2 + (2 * runs), checks.Total);
    }

    [Fact]
    public async Task Headless_Run_ChecksThePlanOnce()
    {
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, ShortPlan("counted headless", seconds: 1).ToJson());
        using var output = new StringWriter();
        using var checks = new PlanValidations();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, "plan.result.json")], output, output, CancellationToken.None);

        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {output}");
        Assert.Equal(1, checks.By(PlanValidations.Headless));
        Assert.Equal(1, checks.Total);
    }

    [Fact]
    public async Task Headless_Sweep_ChecksTheBasePlanOnceAndEachStepOnce()
    {
        var profile = Path.Combine(_directory, "sweep-plan.json");
        await File.WriteAllTextAsync(profile, ShortPlan("counted headless sweep", seconds: 1).ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Load.Concurrency", "values": ["1", "2"] }""");
        using var output = new StringWriter();
        using var checks = new PlanValidations();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", Path.Combine(_directory, "sweep.result.json")], output, output, CancellationToken.None);

        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {output}");
        // A re-run is a plan of its own (named so), checked when it starts.
        var reRuns = ReRun().Count(output.ToString());
        Assert.Equal(1, checks.By(PlanValidations.Headless));
        Assert.Equal(2 + reRuns, checks.By(PlanValidations.HeadlessSweep));
        Assert.Equal(0, checks.By(PlanValidations.Engine));
        Assert.Equal(3 + reRuns, checks.Total);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [GeneratedRegex(@"again \(re-run: ")]
    private static partial Regex ReRun();
}
