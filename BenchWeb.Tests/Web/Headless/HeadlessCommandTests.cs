using BenchEngine.Running;
using BenchWeb.Headless;

namespace BenchWeb.Tests.Web.Headless;

public sealed class HeadlessCommandTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-").FullName;

    [Fact]
    public async Task Run_ThresholdsMet_ExitsZero()
    {
        var (code, output) = await RunAsync(new ThresholdOptions { MinThroughput = 1 });

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        Assert.Contains("Thresholds: Passed (2 checks)", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ThresholdMissed_ExitsThreeNamingTheCheck()
    {
        var (code, output) = await RunAsync(new ThresholdOptions { MinThroughput = 100_000_000 });

        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("FAIL  average throughput", output, StringComparison.Ordinal);
        Assert.Contains("< 100,000,000.0/s", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_BaselineFromAnEarlierResult_DecidesTheShareCheck()
    {
        var (first, _) = await RunAsync(null, "baseline");
        Assert.Equal(HeadlessCommand.ExitCompleted, first);

        var (code, output) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 5 }, "second", "--baseline", Path.Combine(_directory, "baseline.result.json"));

        Assert.Equal(HeadlessCommand.ExitThresholdsFailed, code);
        Assert.Contains("of the baseline's", output, StringComparison.Ordinal);

        var (passing, _) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.01 }, "third", "--baseline", Path.Combine(_directory, "baseline.result.json"));
        Assert.Equal(HeadlessCommand.ExitCompleted, passing);
    }

    [Fact]
    public async Task Run_UnreadableBaseline_IsInvalidInput()
    {
        await File.WriteAllTextAsync(Path.Combine(_directory, "broken.json"), "{ not json");

        var (code, _) = await RunAsync(new ThresholdOptions { MinShareOfBaseline = 0.9 }, "second", "--baseline", Path.Combine(_directory, "broken.json"));

        Assert.Equal(HeadlessCommand.ExitInvalidInput, code);
    }

    [Fact]
    public async Task Run_CsvPathProfile_ReadsTheLocalFileToItsEnd()
    {
        // On the user's own machine a profile may still name a file by path; only plans from the web may not.
        var csv = Path.Combine(_directory, "flights.csv");
        await File.WriteAllTextAsync(csv, Support.CsvUploads.Flights(321));
        var plan = new RunPlan { Name = "csv", Workload = new BenchEngine.Workloads.WorkloadOptions { Shape = BenchEngine.Workloads.DocumentShape.CsvFile, CsvPath = csv }, Stop = new StopOptions() };
        var profile = Path.Combine(_directory, "csv.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        var summary = Path.Combine(_directory, "csv.result.json");

        var code = await HeadlessCommand.RunAsync([profile, "--summary", summary], TextWriter.Null, TextWriter.Null, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        var result = System.Text.Json.JsonSerializer.Deserialize<RunResult>(await File.ReadAllTextAsync(summary), HeadlessCommand.ResultJsonOptions)!;
        Assert.Equal(321, result.Summary.TotalOk);
    }

    private async Task<(int Code, string Output)> RunAsync(ThresholdOptions? thresholds, string name = "profile", params string[] extra)
    {
        var plan = new RunPlan { Name = name, Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 1 }, Thresholds = thresholds };
        var profile = Path.Combine(_directory, name + ".json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();
        using var error = new StringWriter();
        var code = await HeadlessCommand.RunAsync([profile, "--summary", Path.Combine(_directory, name + ".result.json"), .. extra], output, error, CancellationToken.None);
        return (code, output + error.ToString());
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
