using System.Text.Json;
using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;

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
        Assert.Equal(6, result.Steps.Count);
        Assert.Equal(6, result.Runs.Count);
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
