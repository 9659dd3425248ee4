using System.Diagnostics;
using System.Text;
using BenchEngine.Running;
using BenchWeb.Headless;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Headless;

/// <summary><c>BenchWeb run</c> in a process of its own, stopped by a signal as a CI runner's timeout, <c>docker stop</c> or
/// a user stops it: each signal cancels the run as Ctrl+C does, and its seconds are printed and written before it exits 130.</summary>
[IntegrationTest]
[Slow]
public sealed class HeadlessSignalTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    private readonly string _directory = Directory.CreateTempSubdirectory("benchweb-headless-signal-").FullName;

    // SIGTERM only: a shell starts a background job with SIGINT and SIGQUIT ignored, and a child inherits that, so in such a
    // job (as CI may run the tests) those signals never reach the run. Ctrl+C goes the same way once it arrives.
    [Theory]
    [InlineData("TERM")]
    public async Task Run_StoppedBySignal_KeepsItsSeconds_WritesTheResult_AndExits130(string signal)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        // A light plan (a simulated account at a few requests a second) that would run for ten minutes.
        var plan = new RunPlan
        {
            Name = "signalled",
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 20, Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 600 },
        };
        var profile = Path.Combine(_directory, "signalled.json");
        var result = Path.Combine(_directory, "signalled.result.json");
        await File.WriteAllTextAsync(profile, plan.ToJson());
        var start = new ProcessStartInfo(DashboardProcess.DotnetHost())
        {
            WorkingDirectory = _directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { DashboardProcess.AppPath, "run", profile, "--summary", result })
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment[LoopbackOnly.DisableCloudMetadataProbe] = "true";
        using var process = Process.Start(start)!;
        var output = new StringBuilder();
        var secondPrinted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) =>
        {
            lock (output)
            {
                output.AppendLine(e.Data);
            }

            if (e.Data?.StartsWith('[') == true)
            {
                secondPrinted.TrySetResult();
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            lock (output)
            {
                output.AppendLine(e.Data);
            }
        };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await secondPrinted.Task.WaitAsync(Patience);
            using (var kill = Process.Start("kill", [$"-{signal}", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
            {
                await kill.WaitForExitAsync();
                Assert.Equal(0, kill.ExitCode);
            }

            await process.WaitForExitAsync(new CancellationTokenSource(Patience).Token);
        }
        finally
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }

        // The redirected streams are drained once the process has exited and this wait returns.
        await process.WaitForExitAsync();
        string text;
        lock (output)
        {
            text = output.ToString();
        }

        Assert.True(HeadlessCommand.ExitCancelled == process.ExitCode, $"exit {process.ExitCode}:\n{text}");
        Assert.Contains("signalled: Cancelled (cancelled by the user)", text, StringComparison.Ordinal);
        Assert.Contains($"Result written to {result}", text, StringComparison.Ordinal);
        await using var file = File.OpenRead(result);
        var (document, errors) = await BenchWeb.Transfer.RunTransfer.ReadAsync(file, CancellationToken.None);
        Assert.Empty(errors);
        Assert.Equal(RunStatus.Cancelled, document!.Status);
        Assert.NotEmpty(document.Seconds);
        Assert.Equal(document.Summary!.TotalOk, document.Seconds.Sum(s => s.Ok));
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}
