using System.Globalization;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>6. Push latency: from the engine closing a second to its point on a Chromium page's chart, over a 90 s run
/// watched from its start by 20 pages at once (each records it for every second that arrives live; <c>BENCH_VIEWERS</c>
/// sets another number).</summary>
internal sealed class PushLatencyBenchmark : IBenchmark
{
    public string Name => "push-latency";

    public async Task RunAsync(BenchmarkHost host)
    {
        // Long enough for every page to see 60 seconds arrive live after all 20 have opened.
        const int duration = 90;
        var viewers = int.TryParse(Environment.GetEnvironmentVariable("BENCH_VIEWERS"), CultureInfo.InvariantCulture, out var asked) && asked > 0 ? asked : 20;
        Console.WriteLine($"## Push latency (simulator quick start: 10,000 RU/s, concurrency 32, {duration} s; {viewers} Chromium pages on the live page from its start)");
        await using var dashboard = await DashboardProcess.StartAsync();
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        await using var context = await DashboardPages.NewSignedInContextAsync(browser, dashboard);
        var page = await context.NewPageAsync();
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(page, dashboard.BaseAddress, "push latency", new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "32",
            ["Stop.DurationSeconds"] = duration.ToString(CultureInfo.InvariantCulture),
        });
        // The other pages open together, as a team watching one run would.
        var pages = new List<IPage> { page };
        pages.AddRange(await Task.WhenAll(Enumerable.Range(1, viewers - 1).Select(async _ =>
        {
            var viewer = await context.NewPageAsync();
            await DashboardPages.GotoAsync(viewer, new Uri(dashboard.BaseAddress, $"runs/{runId}"));
            return viewer;
        })));

        await DashboardPages.WaitForStatusAsync(page, "Completed", TimeSpan.FromSeconds(duration + 120));
        var perPage = new List<int>();
        var latencies = new List<double>();
        var received = new List<double>();
        foreach (var viewer in pages)
        {
            var recorded = await viewer.EvaluateAsync<double[]>("() => window.benchWeb?.pushLatencies ?? []");
            perPage.Add(recorded.Length);
            latencies.AddRange(recorded);
            received.AddRange(await viewer.EvaluateAsync<double[]>("() => window.benchWeb?.receiveLatencies ?? []"));
        }

        latencies.Sort();
        received.Sort();
        // The target is over at least 60 seconds on each page: fewer seconds measured live are no answer.
        if (perPage.Min() < 60)
        {
            throw new InvalidOperationException($"A page had only {perPage.Min()} seconds arrive live; the measurement needs at least 60 on each.");
        }

        // Drawn: to the point on the chart, which on one machine includes every page's Chromium renderer sharing its cores.
        // Received: to the second's arrival in the page, what the server, the live feed and the circuit take.
        Console.WriteLine($"{viewers} pages, seconds pushed live: {latencies.Count} ({perPage.Min()}–{perPage.Max()} a page)");
        Console.WriteLine($"  received: p50 {NearestRank(received, 0.50):N0} ms · p95 {NearestRank(received, 0.95):N0} ms · max {received[^1]:N0} ms (target p95 ≤ 250 ms)");
        Console.WriteLine($"  drawn:    p50 {NearestRank(latencies, 0.50):N0} ms · p95 {NearestRank(latencies, 0.95):N0} ms · max {latencies[^1]:N0} ms");
    }
}
