using System.Diagnostics;
using System.Text.Json;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Benchmarks.DashboardDatabase;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>5. Dashboard overhead: one simulator profile run headless (<c>dotnet BenchWeb.dll run</c>) and through the dashboard
/// with a Chromium page on its live page for the whole run, alternating. The simulator has RU/s to spare and a
/// 1 ms median latency: ~16,000 inserts/s with the client near half its CPU, so what the dashboard and the
/// browser take from the same cores would show.</summary>
internal sealed class DashboardOverheadBenchmark : IBenchmark
{
    public string Name => "dashboard-overhead";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 3;
        var fields = new Dictionary<string, string>
        {
            ["Target.Simulator.ProvisionedRequestUnits"] = "5000000",
            ["Target.Simulator.MedianLatencyMs"] = "1",
            ["Load.Concurrency"] = "32",
            ["Stop.DurationSeconds"] = "30",
        };
        Console.WriteLine($"## Dashboard overhead (simulator, 5,000,000 RU/s, 1 ms median latency, concurrency 32, 30 s; 1 warm-up + {rounds} rounds, headless and dashboard alternating)");
        await using var dashboard = await DashboardProcess.StartAsync();
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        var work = Directory.CreateTempSubdirectory("benchweb-overhead-");
        try
        {
            // The warm-up goes through the dashboard first, so the headless profile is exactly the plan it ran.
            var (_, planJson) = await DashboardRunAsync("warm-up");
            var profile = Path.Combine(work.FullName, "profile.json");
            await File.WriteAllTextAsync(profile, planJson);
            await HeadlessRunAsync(profile, Path.Combine(work.FullName, "warm-up.json"));
            var headless = new List<double>();
            var watched = new List<double>();
            for (var round = 1; round <= rounds; round++)
            {
                headless.Add(await HeadlessRunAsync(profile, Path.Combine(work.FullName, $"round-{round}.json")));
                watched.Add((await DashboardRunAsync($"round {round}")).Throughput);
            }

            Console.WriteLine($"headless: {string.Join(", ", headless.Select(v => v.ToString("N0")))}/s (average {headless.Average():N0}/s)");
            Console.WriteLine($"dashboard with a live page: {string.Join(", ", watched.Select(v => v.ToString("N0")))}/s (average {watched.Average():N0}/s)");
            Console.WriteLine($"ratio of medians (dashboard ÷ headless): {Median(watched) / Median(headless):F3} (target ≥ 0.97)");
        }
        finally
        {
            work.Delete(recursive: true);
        }

        async Task<(double Throughput, string PlanJson)> DashboardRunAsync(string round)
        {
            await using var context = await DashboardPages.NewSignedInContextAsync(browser, dashboard);
            var page = await context.NewPageAsync();
            var runId = await DashboardPages.SaveAndRunNewProfileAsync(page, dashboard.BaseAddress, $"dashboard overhead {round}", fields);
            await DashboardPages.WaitForStatusAsync(page, "Completed", TimeSpan.FromMinutes(3));
            var (summaryJson, planJson) = await ReadRunAsync(dashboard, runId);
            using var summary = JsonDocument.Parse(summaryJson);
            return (summary.RootElement.GetProperty("averageThroughput").GetDouble(), planJson);
        }
    }

    private static async Task<double> HeadlessRunAsync(string profile, string summaryPath)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { DashboardProcess.AppPath, "run", profile, "--summary", summaryPath })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet BenchWeb.dll run.");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"Headless run exited with {process.ExitCode}:\n{await output}\n{await error}");
        }

        using var result = JsonDocument.Parse(await File.ReadAllTextAsync(summaryPath));
        return result.RootElement.GetProperty("summary").GetProperty("averageThroughput").GetDouble();
    }
}
