using System.Globalization;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>6. Push latency: from the engine closing a second to its point on a Chromium page's chart, for 20 pages
/// (<c>BENCH_VIEWERS</c> sets another number) that are open on a run's page before it starts (a 70 s run queued behind a
/// 20 s one), then for 20 that open a 90 s run's page together while it runs; each page records every second that arrives
/// live. <c>push-latency-shared</c>: two instances in shared mode, the run on one and every page on the
/// other (<see cref="PushInstances"/>).</summary>
internal sealed class PushLatencyBenchmark(bool shared = false) : IBenchmark
{
    public string Name => shared ? "push-latency-shared" : "push-latency";

    // The shared variant needs PostgreSQL and Redis (tools/bench.sh push-latency-shared starts them).
    public bool RunsUnderAll => !shared;

    public async Task RunAsync(BenchmarkHost host)
    {
        var viewers = PushViewers.Count();
        Console.WriteLine($"## Push latency (simulator quick start: 10,000 RU/s, concurrency 32; {viewers} Chromium pages on a run's live page"
            + (shared ? "; shared mode: the runs on one instance, the pages on another)" : ")"));
        await using var instances = await PushInstances.StartAsync(shared);
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        await using var context = await DashboardPages.NewSignedInContextAsync(browser, instances.Viewers);
        await using var runnerContext = instances.Shared ? await DashboardPages.NewSignedInContextAsync(browser, instances.Runner) : context;
        var launcher = await runnerContext.NewPageAsync();

        // 1. A team waiting for a run: the pages are open on its page while it waits in line behind a 20 s run, so every one
        // of its seconds reaches 20 open pages. The first page looks at the run ahead while it runs (the instance's first run
        // page, compiled before the 20 open), then every page opens the waiting run together.
        var ahead = await LaunchAsync(launcher, instances.Runner, "push latency: the run ahead", 20);
        var waited = await LaunchAsync(launcher, instances.Runner, "push latency: waited for", 70);
        await launcher.GotoAsync("about:blank");
        var first = await context.NewPageAsync();
        await DashboardPages.GotoAsync(first, RunPage(instances, ahead));
        await DashboardPages.GotoAsync(first, RunPage(instances, waited));
        var pages = new List<IPage> { first };
        pages.AddRange(await OpenTogetherAsync(context, RunPage(instances, waited), viewers - 1));
        await WatchAsync($"{viewers} pages open before the run starts (70 s, queued behind a 20 s run)", instances, pages, TimeSpan.FromSeconds(20 + 70 + 120));
        foreach (var page in pages)
        {
            await page.CloseAsync();
        }

        // 2. A team opening a run's page while it runs: the first page, then the others together, 90 s run.
        const int duration = 90;
        var running = await LaunchAsync(launcher, instances.Runner, "push latency", duration);
        if (instances.Shared)
        {
            await launcher.CloseAsync();
            first = await context.NewPageAsync();
            await DashboardPages.GotoAsync(first, RunPage(instances, running));
        }
        else
        {
            first = launcher;
        }

        pages = [first, .. await OpenTogetherAsync(context, RunPage(instances, running), viewers - 1)];
        await WatchAsync($"{viewers} pages opening while the run runs ({duration} s)", instances, pages, TimeSpan.FromSeconds(duration + 120));
    }

    private static Task<long> LaunchAsync(IPage launcher, DashboardProcess runner, string name, int seconds) =>
        DashboardPages.SaveAndRunNewProfileAsync(launcher, runner.BaseAddress, name, new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "32",
            ["Stop.DurationSeconds"] = seconds.ToString(CultureInfo.InvariantCulture),
        });

    private static Uri RunPage(PushInstances instances, long runId) => new(instances.Viewers.BaseAddress, $"runs/{runId}");

    private static Task<IPage[]> OpenTogetherAsync(IBrowserContext context, Uri address, int count) =>
        Task.WhenAll(Enumerable.Range(0, count).Select(async _ =>
        {
            var viewer = await context.NewPageAsync();
            await DashboardPages.GotoAsync(viewer, address);
            return viewer;
        }));

    /// <summary>Waits for the pages' run to complete, then prints what the pages recorded and where the CPU went meanwhile.</summary>
    private static async Task WatchAsync(string title, PushInstances instances, List<IPage> pages, TimeSpan timeout)
    {
        // Where the machine's CPU goes while the pages watch: the dashboard(s), with the run's engine in the runner, and Chromium.
        var watched = System.Diagnostics.Stopwatch.StartNew();
        var runnerCpu = CpuTimes.ProcessCpu(instances.Runner.ProcessId);
        var viewersCpu = CpuTimes.ProcessCpu(instances.Viewers.ProcessId);
        var chromiumCpu = CpuTimes.DescendantsCpu(Environment.ProcessId, "chromium");
        await DashboardPages.WaitForStatusAsync(pages[0], "Completed", timeout);
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
        Console.WriteLine($"{title}; seconds pushed live: {latencies.Count} ({perPage.Min()}–{perPage.Max()} a page)");
        Console.WriteLine($"  received: p50 {NearestRank(received, 0.50):N0} ms · p95 {NearestRank(received, 0.95):N0} ms · max {received[^1]:N0} ms (target p95 ≤ 250 ms)");
        // Handed out: to the server handing the second to the page's circuit (the rest of received is the connection and the
        // page's main thread). Redraw: how long one redraw of the page's charts takes.
        // Once every page is open: the seconds after the last page's first live one. Pages that open together (20 renderers,
        // 20 circuits and their first reads at once on this machine) hold back the seconds that arrive meanwhile.
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
