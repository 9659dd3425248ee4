using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Configuration;

namespace BenchWeb.Tests.Web.Headless;

/// <summary>The <c>run</c> command's sweep form, in process, on the simulator.</summary>
[IntegrationTest]
public sealed class HeadlessSweepTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-sweep-").FullName;

    [Fact]
    [Slow]
    public async Task RunSweep_SixSteps_PassingThresholdAtTheKnee_ExitsZeroAndWritesEveryStep()
    {
        var (code, output, result) = await RunAsync(new ThresholdOptions { MinThroughput = 1 });

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        // A step whose crossing of the rule the next one did not confirm is run again, so there may be more runs than steps.
        Assert.Equal(6, result.Steps.Count(s => !s.IsReRun));
        Assert.Equal(result.Steps.Count, result.Runs.Count);
        var knee = Assert.Single(result.Knees);
        Assert.NotNull(knee.RecommendedIndex);
        Assert.Contains("◀ recommended", output, StringComparison.Ordinal);
        Assert.Contains($"Knee: {knee.Reason}", output, StringComparison.Ordinal);
        Assert.Contains("Thresholds at the recommended step: passed", output, StringComparison.Ordinal);
    }

    [Fact]
    [Slow]
    public async Task RunSweep_FailingThresholdAtTheKnee_ExitsWithTheThresholdCode()
    {
        var (code, output, _) = await RunAsync(new ThresholdOptions { MinThroughput = 10_000_000 });

        Assert.True(code == HeadlessCommand.ExitThresholdsFailed, $"exit {code}: {output}");
        Assert.Contains("Thresholds at the recommended step: FAILED", output, StringComparison.Ordinal);
    }

    [Fact]
    [Slow]
    public async Task RunSweep_LastStepCrossesTheRule_ReRunsItOnceSaysWhyAndJudgesOnTheReRun()
    {
        // 400 RU/s cannot take what four workers send: the last step is throttled, on any machine, and its re-run too.
        var plan = new RunPlan { Name = "budget sweep", Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 2 } };
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Target.Simulator.ProvisionedRequestUnits", "values": ["100000", "400"] }""");
        var summary = Path.Combine(_directory, "out.json");
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", summary], output, TextWriter.Null, CancellationToken.None);

        var text = output.ToString();
        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {text}");
        var result = JsonSerializer.Deserialize<HeadlessSweepResult>(await File.ReadAllTextAsync(summary), RunPlan.JsonOptions)!;
        Assert.Equal([(0, false), (1, false), (1, true)], result.Steps.Select(s => (s.Index, s.IsReRun)));
        Assert.Equal("the throttled share rose past the rule at the last step", result.Steps[2].ReRunReason);
        Assert.Equal(3, result.Runs.Count);
        Assert.EndsWith(" · re-run", result.Runs[2].Plan!.Name, StringComparison.Ordinal);
        Assert.Contains("Step 2/2 again (re-run: the throttled share rose past the rule at the last step)", text, StringComparison.Ordinal);
        Assert.Contains("Step 2 (re-run): re-run: the throttled share rose past the rule at the last step; the re-run confirmed it", text, StringComparison.Ordinal);
        var knee = Assert.Single(result.Knees);
        Assert.Equal(BenchEngine.Sweeps.KneeLimit.Throttling, knee.LimitedBy);
        Assert.Equal(0, knee.RecommendedIndex);
        Assert.Contains("confirmed by a re-run of that step", knee.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunSweep_InvalidSweep_ExitsInvalidInputAndRunsNothing()
    {
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "bad", Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Load.Concurrency", "values": ["4", "abc"] }""");
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", Path.Combine(_directory, "out.json")], TextWriter.Null, error, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("Sweep.Values", error.ToString(), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(_directory, "out.json")));
    }

    [Fact]
    public async Task RunSweep_SettingTheTargetDoesNotRead_ExitsInvalidInputNamingItAndRunsNothing()
    {
        // A simulator profile: Cosmos DB's connection mode would make every step the same run, as the form and the API say.
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "simulated", Stop = new StopOptions { DurationSeconds = 1 } }.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Target.Cosmos.ConnectionMode", "values": ["Gateway", "Direct"] }""");
        using var output = new StringWriter();
        using var error = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", Path.Combine(_directory, "out.json")], output, error, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
        Assert.Contains("Sweep.Setting", error.ToString(), StringComparison.Ordinal);
        Assert.Contains("is a setting of Cosmos DB (SQL API); this profile's target is Simulated Cosmos DB", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("Step 1/", output.ToString(), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(_directory, "out.json")));
    }

    [Fact]
    [Slow]
    public async Task RunSweep_ConfiguredClientLimits_JudgeEveryStep()
    {
        // A client at 20 % host CPU in every second is healthy by the default bounds and limited by a configured 10 %:
        // the sweep's steps must be judged by the configured bound, as a single headless run is.
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, new RunPlan { Name = "bounded sweep", Stop = new StopOptions { DurationSeconds = 2 } }.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Load.Concurrency", "values": ["1", "2"] }""");
        var summary = Path.Combine(_directory, "out.json");
        using var output = new StringWriter();
        var settings = ScriptedClientHealth.Settings();
        settings["BenchWeb:ClientLimits:HostCpuPercent"] = "10";
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", summary], output, TextWriter.Null, configuration,
            limits => new BenchmarkRunner { ClientLimits = limits, ClientHealth = l => new ScriptedClientHealth(l, _ => ScriptedClientHealth.Healthy) },
            CancellationToken.None);

        var text = output.ToString();
        Assert.True(code == HeadlessCommand.ExitCompleted, $"exit {code}: {text}");
        var result = JsonSerializer.Deserialize<HeadlessSweepResult>(await File.ReadAllTextAsync(summary), RunPlan.JsonOptions)!;
        Assert.All(result.Steps, step => Assert.True(step.ClientLimited, $"step {step.Index + 1} should be client-limited by the configured 10 % host CPU"));
        Assert.Contains("client-limited, not judged: seconds 0–", text, StringComparison.Ordinal);
        Assert.Contains("host CPU 20 %", text, StringComparison.Ordinal);
    }

    private async Task<(int Code, string Output, HeadlessSweepResult Result)> RunAsync(ThresholdOptions thresholds)
    {
        var plan = new RunPlan { Name = "headless sweep", Stop = new StopOptions { DurationSeconds = 1 }, Thresholds = thresholds };
        var profile = Path.Combine(_directory, "plan.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        var sweep = Path.Combine(_directory, "sweep.json");
        await File.WriteAllTextAsync(sweep, """{ "setting": "Load.Concurrency", "values": ["1", "2", "4", "8", "16", "32"] }""");
        var summary = Path.Combine(_directory, "out.json");
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--sweep", sweep, "--summary", summary], output, TextWriter.Null, CancellationToken.None);

        var result = File.Exists(summary) ? JsonSerializer.Deserialize<HeadlessSweepResult>(await File.ReadAllTextAsync(summary), RunPlan.JsonOptions)! : new HeadlessSweepResult();
        return (code, output.ToString(), result);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
