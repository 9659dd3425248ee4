using System.Diagnostics;
using BenchWeb.Tests.Support;
using static Benchmarks.DashboardDatabase;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>8. Run history: GET /runs (first page, server-rendered: prerendering runs the history query) with 10,000 runs
/// in the dashboard's database. The runs carry headline figures, tags and notes like finished runs, but no seconds
/// (the list never reads them).</summary>
internal sealed class HistoryPageBenchmark : IBenchmark
{
    public string Name => "history-page";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int runs = 10_000;
        const int requests = 20;
        Console.WriteLine($"## Run history page ({runs:N0} runs in SQLite; GET /runs, first page of 50, server-rendered; 3 warm-up + {requests} timed requests, one at a time)");
        await using var dashboard = await DashboardProcess.StartAsync();
        await SeedRunsAsync(dashboard.DatabasePath, runs);
        // Signed in as a user would be: the session cookie the printed link gives.
        using var http = await dashboard.CreateSignedInClientAsync(TimeSpan.FromSeconds(30));
        foreach (var (label, path) in new[] { ("unfiltered", "runs"), ("filtered and sorted", "runs?status=Completed&tag=gateway&sort=p99&dir=desc") })
        {
            // The first request after the start includes JIT and EF's model building; printed, not counted.
            var cold = Stopwatch.StartNew();
            await GetPageAsync(path);
            var coldMs = cold.Elapsed.TotalMilliseconds;
            for (var i = 0; i < 2; i++)
            {
                await GetPageAsync(path);
            }

            var times = new List<double>();
            for (var i = 0; i < requests; i++)
            {
                var stopwatch = Stopwatch.StartNew();
                var html = await GetPageAsync(path);
                times.Add(stopwatch.Elapsed.TotalMilliseconds);
                if (i == 0 && !html.Contains("data-run=", StringComparison.Ordinal))
                {
                    throw new InvalidOperationException($"GET /{path} returned no rows.");
                }
            }

            times.Sort();
            Console.WriteLine($"{label} (/{path}): p50 {NearestRank(times, 0.50):N1} ms · p95 {NearestRank(times, 0.95):N1} ms · max {times[^1]:N1} ms (target < 300 ms); first request {coldMs:N0} ms");
        }

        async Task<string> GetPageAsync(string path)
        {
            using var response = await http.GetAsync(new Uri(path, UriKind.Relative));
            response.EnsureSuccessStatusCode();
            return await response.Content.ReadAsStringAsync();
        }
    }
}
