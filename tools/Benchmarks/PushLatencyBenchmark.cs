using System.Globalization;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>6. Push latency: from the engine closing a second to its point on a Chromium page's chart, over a 90 s run
/// watched from its start by 20 pages at once (each records it for every second that arrives live; <c>BENCH_VIEWERS</c>
/// sets another number). <c>push-latency-shared</c>: two instances in shared mode, the run on one and every page on the
/// other (<see cref="PushInstances"/>).</summary>
internal sealed class PushLatencyBenchmark(bool shared = false) : IBenchmark
{
    public string Name => shared ? "push-latency-shared" : "push-latency";

    // The shared variant needs PostgreSQL and Redis (tools/bench.sh push-latency-shared starts them).
    public bool RunsUnderAll => !shared;

    public async Task RunAsync(BenchmarkHost host)
    {
        // Long enough for every page to see 60 seconds arrive live after all 20 have opened.
        const int duration = 90;
        var viewers = PushViewers.Count();
        Console.WriteLine($"## Push latency (simulator quick start: 10,000 RU/s, concurrency 32, {duration} s; {viewers} Chromium pages on the live page from its start"
            + (shared ? "; shared mode: the run on one instance, the pages on another)" : ")"));
        await using var instances = await PushInstances.StartAsync(shared);
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        await using var context = await DashboardPages.NewSignedInContextAsync(browser, instances.Viewers);
        await using var runnerContext = instances.Shared ? await DashboardPages.NewSignedInContextAsync(browser, instances.Runner) : context;
        var launcher = await runnerContext.NewPageAsync();
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(launcher, instances.Runner.BaseAddress, "push latency", new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "32",
            ["Stop.DurationSeconds"] = duration.ToString(CultureInfo.InvariantCulture),
        });
        // One instance: the page that launched the run is a viewer, on the run's page before the others. Shared: it leaves, and
        // every viewer is on the other instance, where one page opens the run first as well. (Without it the viewers' instance
        // served its first run page in the burst of 20: JIT-compiling the page and its reads while the seconds came, a cold
        // start the launching page had already paid for on one instance.)
        var pages = new List<IPage>();
        if (instances.Shared)
        {
            await launcher.CloseAsync();
            var first = await context.NewPageAsync();
            await DashboardPages.GotoAsync(first, new Uri(instances.Viewers.BaseAddress, $"runs/{runId}"));
            pages.Add(first);
        }
        else
        {
            pages.Add(launcher);
        }

        // The other pages open together, as a team watching one run would.
        pages.AddRange(await Task.WhenAll(Enumerable.Range(pages.Count, viewers - pages.Count).Select(async _ =>
        {
            var viewer = await context.NewPageAsync();
            await DashboardPages.GotoAsync(viewer, new Uri(instances.Viewers.BaseAddress, $"runs/{runId}"));
            return viewer;
        })));

        // Where the machine's CPU goes while the pages watch: the dashboard(s), with the run's engine in the runner, and Chromium.
        var watched = System.Diagnostics.Stopwatch.StartNew();
        var runnerCpu = CpuTimes.ProcessCpu(instances.Runner.ProcessId);
        var viewersCpu = CpuTimes.ProcessCpu(instances.Viewers.ProcessId);
        var chromiumCpu = CpuTimes.DescendantsCpu(Environment.ProcessId, "chromium");
        await DashboardPages.WaitForStatusAsync(pages[0], "Completed", TimeSpan.FromSeconds(duration + 120));
        runnerCpu = CpuTimes.ProcessCpu(instances.Runner.ProcessId) - runnerCpu;
        viewersCpu = CpuTimes.ProcessCpu(instances.Viewers.ProcessId) - viewersCpu;
        chromiumCpu = CpuTimes.DescendantsCpu(Environment.ProcessId, "chromium") - chromiumCpu;
        var wall = watched.Elapsed;
        var perPage = new List<int>();
        var latencies = new List<double>();
        var received = new List<double>();
        var server = new List<double>();
        var drawMs = new List<double>();
        var live = new List<LiveSecond[]>();
        foreach (var viewer in pages)
        {
            live.Add(await viewer.EvaluateAsync<LiveSecond[]>("() => window.benchWeb?.liveSeconds ?? []"));
            var recorded = await viewer.EvaluateAsync<double[]>("() => window.benchWeb?.pushLatencies ?? []");
            perPage.Add(recorded.Length);
            latencies.AddRange(recorded);
            received.AddRange(live[^1].Select(s => s.Received));
            server.AddRange(live[^1].Where(s => s.Server is not null).Select(s => s.Server!.Value));
            drawMs.AddRange(await viewer.EvaluateAsync<double[]>("() => window.benchWeb?.drawMs ?? []"));
        }

        latencies.Sort();
        received.Sort();
        server.Sort();
        drawMs.Sort();
        // The target is over at least 60 seconds on each page: fewer seconds measured live are no answer.
        if (perPage.Min() < 60)
        {
            throw new InvalidOperationException($"A page had only {perPage.Min()} seconds arrive live; the measurement needs at least 60 on each.");
        }

        // Drawn: to the point on the chart, which on one machine includes every page's Chromium renderer sharing its cores.
        // Received: to the second's arrival in the page, what the server, the live feed and the circuit take.
        Console.WriteLine($"{viewers} pages, seconds pushed live: {latencies.Count} ({perPage.Min()}–{perPage.Max()} a page)");
        Console.WriteLine($"  received: p50 {NearestRank(received, 0.50):N0} ms · p95 {NearestRank(received, 0.95):N0} ms · max {received[^1]:N0} ms (target p95 ≤ 250 ms)");
        // Handed out: to the server handing the second to the page's circuit (the rest of received is the connection and the
        // page's main thread). Redraw: how long one redraw of the page's charts takes.
        // Once every page is open: the seconds after the last page's first live one. The pages open together (20 renderers, 20
        // circuits and their first reads at once on this machine), and the seconds that arrive meanwhile wait behind that.
        var allOpen = live.Max(page => page.Length == 0 ? int.MaxValue : page.Min(s => s.Index));
        var steady = live.SelectMany(page => page).Where(s => s.Index > allOpen).ToList();
        if (steady.Count > 0)
        {
            var steadyReceived = steady.Select(s => s.Received).Order().ToList();
            var steadyServer = steady.Where(s => s.Server is not null).Select(s => s.Server!.Value).Order().ToList();
            Console.WriteLine($"  once all {pages.Count} pages are open (seconds after {allOpen}, {steady.Count} arrivals): received p50 {NearestRank(steadyReceived, 0.50):N0} ms · "
                + $"p95 {NearestRank(steadyReceived, 0.95):N0} ms · max {steadyReceived[^1]:N0} ms"
                + (steadyServer.Count > 0 ? $"; handed out p95 {NearestRank(steadyServer, 0.95):N0} ms" : ""));
        }

        if (server.Count > 0)
        {
            Console.WriteLine($"  handed out by the server: p50 {NearestRank(server, 0.50):N0} ms · p95 {NearestRank(server, 0.95):N0} ms · max {server[^1]:N0} ms");
        }

        Console.WriteLine($"  drawn:    p50 {NearestRank(latencies, 0.50):N0} ms · p95 {NearestRank(latencies, 0.95):N0} ms · max {latencies[^1]:N0} ms");
        if (drawMs.Count > 0)
        {
            Console.WriteLine($"  one redraw of a page's charts: p50 {NearestRank(drawMs, 0.50):N1} ms · p95 {NearestRank(drawMs, 0.95):N1} ms ({drawMs.Count} redraws)");
        }

        Console.WriteLine($"  CPU while watched ({wall.TotalSeconds:N0} s): " + (instances.Shared
            ? $"runner {runnerCpu.TotalSeconds:N1} s, viewers' instance {viewersCpu.TotalSeconds:N1} s"
            : $"dashboard with the run {runnerCpu.TotalSeconds:N1} s") + $", Chromium {chromiumCpu.TotalSeconds:N1} s ({Environment.ProcessorCount} cores)");
        Console.WriteLine($"  load average (1 min) at the end: {HostLoad.LoadAverage()}");
    }
}

/// <summary>How many viewers the push benchmarks have: <c>BENCH_VIEWERS</c>, default 20.</summary>
internal static class PushViewers
{
    public static int Count() =>
        int.TryParse(Environment.GetEnvironmentVariable("BENCH_VIEWERS"), CultureInfo.InvariantCulture, out var asked) && asked > 0 ? asked : 20;
}

/// <summary>One second that reached a page live: its index, and how long after the engine closed it the page got it and the
/// server handed it out (null when the page was not told).</summary>
internal sealed class LiveSecond
{
    public int Index { get; set; }

    public double Received { get; set; }

    public double? Server { get; set; }
}
