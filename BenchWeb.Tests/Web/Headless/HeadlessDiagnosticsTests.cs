using System.Text.Json.Nodes;
using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;
using BenchWeb.Transfer;

namespace BenchWeb.Tests.Web.Headless;

/// <summary>The headless command's result file carries the slowest requests' diagnostics, and a dashboard can import it.</summary>
[IntegrationTest]
public sealed class HeadlessDiagnosticsTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-diagnostics-").FullName;

    [Fact]
    public async Task Run_WritesTheSlowRequestsToTheResultFile_AndSaysHowManyWereKept()
    {
        var plan = new RunPlan
        {
            Name = "headless diagnostics",
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 2 },
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 0, SlowestPerSecond = 0 },
        };
        var profile = Path.Combine(_directory, "profile.json");
        var resultPath = Path.Combine(_directory, "profile.result.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        using var output = new StringWriter();

        var code = await HeadlessCommand.RunAsync([profile, "--summary", resultPath], output, TextWriter.Null, CancellationToken.None);

        Assert.Equal(HeadlessCommand.ExitCompleted, code);
        var json = await File.ReadAllTextAsync(resultPath);
        var entries = JsonNode.Parse(json)!["slowRequests"]!.AsArray();
        Assert.InRange(entries.Count, 2, 3 * DiagnosticsOptions.MaxPerSecond);
        Assert.All(entries, e => Assert.Contains("Simulated", e!["text"]!.GetValue<string>(), StringComparison.Ordinal));
        Assert.Contains($"slowest requests kept with their diagnostics: {entries.Count}", output.ToString(), StringComparison.Ordinal);
        var (document, errors) = await RunTransfer.ReadAsync(new MemoryStream(System.Text.Encoding.UTF8.GetBytes(json)), CancellationToken.None);
        Assert.Empty(errors);
        Assert.Empty(RunTransfer.Validate(document!));
        Assert.Equal(entries.Count, document!.SlowRequests.Count);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
