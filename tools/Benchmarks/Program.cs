using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Azure.Data.Tables;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Azure.Cosmos;
using BenchWeb.Data;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Playwright;

// Benchmarks of the engine itself. Local servers are given by environment variables (tools/bench.sh starts them):
//   BENCH_TABLES_CONNECTION_STRING  Azurite's connection string
//   BENCH_COSMOS_ENDPOINT           the Cosmos DB API server (Gateway, http)
// The dashboard benchmarks start BenchWeb.dll (copied beside this program) and drive Debian's Chromium
// (BENCHWEB_CHROMIUM, default /usr/bin/chromium).
CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
var which = args.Length > 0 ? args[0] : "all";
var tables = Environment.GetEnvironmentVariable("BENCH_TABLES_CONNECTION_STRING");
var cosmos = Environment.GetEnvironmentVariable("BENCH_COSMOS_ENDPOINT");
var cosmosKey = Convert.ToBase64String(new byte[64]);
var context = new TargetContext(TimeProvider.System, name => name switch
{
    "TABLES_CONNECTION_STRING" => tables,
    "COSMOS_KEY" => cosmosKey,
    _ => null,
});

if (which is "engine-cost" or "all")
{
    await EngineCostAsync();
}

if (which is "goodput" or "all")
{
    await GoodputAsync();
}

if (which is "scaling" or "all")
{
    await ScalingAsync();
}

if (which is "memory" or "all")
{
    await MemoryAsync(args.Length > 1 ? long.Parse(args[1], CultureInfo.InvariantCulture) : 2_000_000);
}

if (which is "dashboard-overhead" or "all")
{
    await DashboardOverheadAsync();
}

if (which is "push-latency" or "all")
{
    await PushLatencyAsync();
}

if (which is "history-page" or "all")
{
    await HistoryPageAsync();
}

if (which is "telemetry-cost" or "all")
{
    TelemetryCost();
}

if (which is "agents")
{
    await AgentsAsync();
}

if (which is "client-health" or "all")
{
    await ClientHealthAsync();
}

if (which is "health-cost" or "all")
{
    await HealthCostAsync();
}

if (which is "clock" or "all")
{
    await ClockAsync();
}

if (which is "engine-ceiling" or "all")
{
    await EngineCeilingAsync();
}

if (which is "redis-peer" || (which is "all" && Environment.GetEnvironmentVariable("BENCH_REDIS_PORT") is not null))
{
    await RedisPeerAsync(int.Parse(Environment.GetEnvironmentVariable("BENCH_REDIS_PORT") ?? throw new InvalidOperationException("BENCH_REDIS_PORT: tools/bench.sh redis-peer starts a server and sets it."), CultureInfo.InvariantCulture));
}

if (which is "table-peer" or "all")
{
    await TablePeerAsync();
}

return 0;

// A run that gives documents up after their throttle retries ends Failed, honestly; the unbounded pattern is measured for
// exactly that shortfall, so it may.
async Task<RunResult> RunAsync(RunPlan plan, bool shortfallExpected = false, BenchmarkRunner? runner = null)
{
    var result = await (runner ?? new BenchmarkRunner()).RunAsync(plan, context);
    if (result.Status != RunStatus.Completed && !(shortfallExpected && result.Status == RunStatus.Failed && result.Summary.TotalGivenUp > 0 && result.Summary.TotalErrors == 0))
    {
        throw new InvalidOperationException($"{plan.Name}: {result.Status} {result.FailureReason}");
    }

    return result;
}

RunPlan TablePlan(string name, int concurrency, long total, int batch = 1, LoadModel model = LoadModel.ClosedLoop) => new()
{
    Name = name,
    Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = "b" + Guid.NewGuid().ToString("N")[..12] } },
    Workload = batch > 1 ? new WorkloadOptions { Shape = DocumentShape.Flight } : new WorkloadOptions(),
    Load = new LoadOptions { Model = model, Concurrency = concurrency, BatchSize = batch },
    Stop = new StopOptions { TotalDocuments = total },
};

RunPlan CosmosPlan(string name, int concurrency, long total) => new()
{
    Name = name,
    Target = new TargetOptions
    {
        Kind = TargetKind.CosmosSql,
        Cosmos = new CosmosOptions { Endpoint = cosmos, ConnectionMode = CosmosConnectionMode.Gateway, LimitToEndpoint = true, Container = "b" + Guid.NewGuid().ToString("N")[..12], RequestUnits = null },
    },
    Load = new LoadOptions { Concurrency = concurrency },
    Stop = new StopOptions { TotalDocuments = total },
};

// 1. Engine cost: the engine's inserts/s ÷ a bare loop of the same SDK calls at the same concurrency.
async Task EngineCostAsync()
{
    const int concurrency = 32;
    const int total = 10_000;
    Console.WriteLine($"## Engine cost (concurrency {concurrency}, {total:N0} small documents per run, alternating bare/engine, 1 warm-up + 5 rounds)");
    if (tables is not null)
    {
        await CompareAsync("Azurite single inserts", () => BareTablesAsync(concurrency, total), () => TablePlan("engine", concurrency, total));
    }

    if (cosmos is not null)
    {
        await CompareAsync("Cosmos API server point inserts", () => BareCosmosAsync(concurrency, total), () => CosmosPlan("engine", concurrency, total));
    }

    async Task CompareAsync(string what, Func<Task<double>> bareLoop, Func<RunPlan> plan)
    {
        // One discarded round warms the JIT, the connection pools and the server.
        await bareLoop();
        await RunAsync(plan());
        var bare = new List<double>();
        var engine = new List<double>();
        var bareCpu = new List<double>();
        var engineCpu = new List<double>();
        // The measured rounds skip the engine's warm-up (0.3 s of its hot path on the no-op target before a run's clock
        // starts, never counted in its throughput): the discarded round warmed this process's code already, and the
        // warm-up's CPU would count as 30 µs an insert of a 10,000-insert run.
        var warm = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
        for (var round = 0; round < 5; round++)
        {
            // This process's CPU per insert: the client's cost, which on two shared cores is taken from the server's.
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            bare.Add(await bareLoop());
            bareCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / total);
            cpu = Process.GetCurrentProcess().TotalProcessorTime;
            engine.Add((await RunAsync(plan(), runner: warm)).Summary.AverageThroughput);
            engineCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMicroseconds / total);
        }

        Console.WriteLine($"{what}: bare {string.Join(", ", bare.Select(v => v.ToString("N0")))}/s · engine {string.Join(", ", engine.Select(v => v.ToString("N0")))}/s · ratio of medians {Median(engine) / Median(bare):F3}"
            + $" · client CPU an insert: bare {Median(bareCpu):F1} µs, engine {Median(engineCpu):F1} µs");
    }
}

async Task<double> BareTablesAsync(int concurrency, int total)
{
    var options = new TableClientOptions();
    options.Retry.MaxRetries = 0;
    var table = new TableServiceClient(tables, options).GetTableClient("bare" + Guid.NewGuid().ToString("N")[..12]);
    await table.CreateIfNotExistsAsync();
    var stopwatch = Stopwatch.StartNew();
    await Parallel.ForEachAsync(Enumerable.Range(0, total), new ParallelOptions { MaxDegreeOfParallelism = concurrency }, async (i, ct) =>
    {
        var entity = new TableEntity(Guid.NewGuid().ToString(), Guid.NewGuid().ToString())
        {
            ["KeyNumber"] = i,
            ["SomeText"] = "Lorem ipsum dolor sit amet, consectetur adipiscing",
            ["SomeCount"] = i % 100,
        };
        await table.AddEntityAsync(entity, ct);
    });
    return total / stopwatch.Elapsed.TotalSeconds;
}

async Task<double> BareCosmosAsync(int concurrency, int total)
{
    using var client = new CosmosClient(cosmos, cosmosKey, new CosmosClientOptions { ConnectionMode = ConnectionMode.Gateway, LimitToEndpoint = true, MaxRetryAttemptsOnRateLimitedRequests = 0, EnableContentResponseOnWrite = false });
    Database database = await client.CreateDatabaseIfNotExistsAsync("benchweb");
    Container container = await database.CreateContainerIfNotExistsAsync("bare" + Guid.NewGuid().ToString("N")[..12], "/PartitionKey");
    var stopwatch = Stopwatch.StartNew();
    await Parallel.ForEachAsync(Enumerable.Range(0, total), new ParallelOptions { MaxDegreeOfParallelism = concurrency }, async (i, ct) =>
    {
        var pk = Guid.NewGuid().ToString();
        var json = $$"""{"id":"{{Guid.NewGuid()}}","KeyNumber":{{i}},"SomeText":"Lorem ipsum dolor sit amet, consectetur adipiscing","SomeCount":{{i % 100}},"PartitionKey":"{{pk}}"}""";
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(json));
        using var response = await container.CreateItemStreamAsync(stream, new PartitionKey(pk), new ItemRequestOptions { EnableContentResponseOnWrite = false }, ct);
        response.EnsureSuccessStatusCode();
    });
    return total / stopwatch.Elapsed.TotalSeconds;
}

// 2. Throttled goodput on the simulator: 5,000 RU/s, one partition, ~1 KB documents.
async Task GoodputAsync()
{
    Console.WriteLine("## Throttled goodput (simulator, 5,000 RU/s, 1 partition, ~1 KB documents, no indexing: 5 RU each)");
    var target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000, PhysicalPartitions = 1, Indexing = BenchEngine.Targets.IndexingMode.None } };
    var workload = new WorkloadOptions { TargetSizeBytes = 1_000 };
    var engine = await RunAsync(new RunPlan
    {
        Name = "engine default",
        Target = target,
        Workload = workload,
        Load = new LoadOptions { Concurrency = 32 },
        Stop = new StopOptions { DurationSeconds = 30 },
    });
    Print("engine default (closed loop, 32 workers, shared back-off)", engine);
    var burst = await RunAsync(new RunPlan
    {
        Name = "unbounded",
        Target = target,
        Workload = workload,
        Load = new LoadOptions { Model = LoadModel.Unbounded, Throttling = new ThrottleOptions { SharedBackoff = false } },
        Stop = new StopOptions { TotalDocuments = 20_000 },
    }, shortfallExpected: true);
    Print("unbounded Task.WhenAll of 20,000 point inserts (seed-002 pattern, per-request retry-after, 9 retries)", burst);

    static void Print(string what, RunResult r)
    {
        var s = r.Summary;
        var busiest = r.Seconds.Where(second => second.IsFull).Select(second => second.RequestUnits).DefaultIfEmpty(0).Max();
        Console.WriteLine($"{what}: steady RU/s {s.SteadyState.RequestUnitsPerSecond:N0} = {s.SteadyState.RequestUnitsPerSecond / 5_000:F3} of provisioned; " +
            $"whole run {s.RequestUnitsPerSecond / 5_000:F3}; busiest full second {busiest / 5_000:F3}; throttled {s.ThrottledFraction:P2} of responses ({s.TotalThrottled:N0}); ok {s.TotalOk:N0}; " +
            $"given up {s.TotalGivenUp:N0}; errors {s.TotalErrors:N0}; p99 {s.Latency.P99Ms:F0} ms; {s.Elapsed.TotalSeconds:F1} s; {r.Status} ({r.StopReason})");
    }
}

// 3. Scaling with concurrency, and waves against a sliding window.
async Task ScalingAsync()
{
    Console.WriteLine("## Scaling (documents/s; entities/s for batches)");
    foreach (var concurrency in new[] { 1, 8, 32, 64 })
    {
        var line = new StringBuilder($"concurrency {concurrency,2}:");
        if (tables is not null)
        {
            var single = await RunAsync(TablePlan("t", concurrency, Math.Min(20_000, 1_500 * concurrency)));
            var batch = await RunAsync(TablePlan("b", concurrency, Math.Min(100_000, 5_000 * concurrency), 100));
            line.Append(CultureInfo.InvariantCulture, $" Azurite single {single.Summary.AverageThroughput,8:N0} · Azurite 100-entity transactions {batch.Summary.AverageThroughput,8:N0}");
        }

        if (cosmos is not null)
        {
            var point = await RunAsync(CosmosPlan("c", concurrency, Math.Min(20_000, 1_000 * concurrency)));
            line.Append(CultureInfo.InvariantCulture, $" · Cosmos API server point {point.Summary.AverageThroughput,8:N0}");
        }

        Console.WriteLine(line);
    }

    if (tables is not null)
    {
        foreach (var concurrency in new[] { 10, 32 })
        {
            var waves = await RunAsync(TablePlan("waves", concurrency, 50_000, 100, LoadModel.Waves));
            var window = await RunAsync(TablePlan("window", concurrency, 50_000, 100, LoadModel.ClosedLoop));
            Console.WriteLine($"Azurite 100-entity transactions at concurrency {concurrency}: waves with a barrier {waves.Summary.AverageThroughput:N0}/s (p99 batch {waves.Summary.Latency.P99Ms:F0} ms) · sliding window {window.Summary.AverageThroughput:N0}/s (p99 batch {window.Summary.Latency.P99Ms:F0} ms)");
        }
    }
}

// 4. Memory: working set after 100,000 and after N flight documents through the no-op target.
async Task MemoryAsync(long total)
{
    Console.WriteLine($"## Memory (flight documents through the no-op target, closed loop of 32)");
    var baseline = 0L;
    foreach (var count in new[] { 100_000L, total })
    {
        var result = await RunAsync(new RunPlan
        {
            Name = "memory",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { TotalDocuments = count },
        });
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        using var process = Process.GetCurrentProcess();
        var workingSet = process.WorkingSet64;
        if (baseline == 0)
        {
            baseline = workingSet;
        }

        Console.WriteLine($"after {count:N0} documents ({result.Summary.AverageThroughput:N0}/s): working set {workingSet / 1048576.0:N1} MB, managed heap {GC.GetTotalMemory(false) / 1048576.0:N1} MB, growth since 100,000: {(workingSet - baseline) / 1048576.0:N1} MB");
    }
}

// 5. Dashboard overhead: one simulator profile run headless (`dotnet BenchWeb.dll run`) and through the dashboard
// with a Chromium page on its live page for the whole run, alternating. The simulator has RU/s to spare and a
// 1 ms median latency: ~16,000 inserts/s with the client near half its CPU, so what the dashboard and the
// browser take from the same cores would show.
async Task DashboardOverheadAsync()
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

async Task<double> HeadlessRunAsync(string profile, string summaryPath)
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

// The run's row in the dashboard's database, once its summary is written.
static async Task<(string SummaryJson, string PlanJson)> ReadRunAsync(DashboardProcess dashboard, long runId)
{
    for (var attempt = 0; attempt < 100; attempt++)
    {
        await using var connection = new SqliteConnection($"Data Source={dashboard.DatabasePath};Mode=ReadOnly");
        await connection.OpenAsync();
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT SummaryJson, PlanJson FROM Runs WHERE Id = $id";
        command.Parameters.AddWithValue("$id", runId);
        await using var reader = await command.ExecuteReaderAsync();
        if (await reader.ReadAsync() && !await reader.IsDBNullAsync(0))
        {
            return (reader.GetString(0), reader.GetString(1));
        }

        await Task.Delay(100);
    }

    throw new InvalidOperationException($"Run {runId} has no summary in the dashboard's database.");
}

// 6. Push latency: from the engine closing a second to its point on a Chromium page's chart, over a 75 s run
// watched from its start (the page records it for every second that arrives live).
async Task PushLatencyAsync()
{
    const int duration = 75;
    Console.WriteLine($"## Push latency (simulator quick start: 10,000 RU/s, concurrency 32, {duration} s; one Chromium page on the live page from the start)");
    await using var dashboard = await DashboardProcess.StartAsync();
    using var playwright = await Playwright.CreateAsync();
    await using var browser = await Chromium.LaunchAsync(playwright);
    await using var context = await DashboardPages.NewSignedInContextAsync(browser, dashboard);
    var page = await context.NewPageAsync();
    await DashboardPages.SaveAndRunNewProfileAsync(page, dashboard.BaseAddress, "push latency", new Dictionary<string, string>
    {
        ["Load.Concurrency"] = "32",
        ["Stop.DurationSeconds"] = duration.ToString(CultureInfo.InvariantCulture),
    });
    await DashboardPages.WaitForStatusAsync(page, "Completed", TimeSpan.FromSeconds(duration + 120));
    var latencies = (await page.EvaluateAsync<double[]>("() => window.benchWeb?.pushLatencies ?? []")).Order().ToList();
    if (latencies.Count == 0)
    {
        throw new InvalidOperationException("The page recorded no live second.");
    }

    // The target is over at least 60 seconds: fewer seconds measured live are no answer.
    if (latencies.Count < 60)
    {
        throw new InvalidOperationException($"Only {latencies.Count} seconds arrived live; the measurement needs at least 60.");
    }

    Console.WriteLine($"seconds pushed live: {latencies.Count} · p50 {Percentile(latencies, 0.50):N0} ms · p95 {Percentile(latencies, 0.95):N0} ms · max {latencies[^1]:N0} ms (target p95 ≤ 1,500 ms over ≥ 60 seconds)");

    // Nearest rank, as the run summaries.
    static double Percentile(List<double> sorted, double p) => sorted[Math.Max(0, (int)Math.Ceiling(p * sorted.Count) - 1)];
}

// 7. Run history: GET /runs (first page, server-rendered: prerendering runs the history query) with 10,000 runs
// in the dashboard's database. The runs carry headline figures, tags and notes like finished runs, but no seconds
// (the list never reads them).
async Task HistoryPageAsync()
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

    static double NearestRank(List<double> sorted, double p) => sorted[Math.Max(0, (int)Math.Ceiling(p * sorted.Count) - 1)];
}

// Runs as the run job leaves them — headline columns filled in, and the plan, summary, environment and verdict
// JSON a real run carries (a few KB a row, so the table's pages are as full as in real use) — through EF in one
// transaction.
static async Task SeedRunsAsync(string databasePath, int count)
{
    var options = new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={databasePath}").Options;
    await using var db = new BenchDbContext(options);
    var random = new Random(4);
    var kinds = new[] { TargetKind.Simulated, TargetKind.CosmosSql, TargetKind.TableStorage, TargetKind.CosmosTable };
    var statuses = new[] { RunStatus.Completed, RunStatus.Completed, RunStatus.Completed, RunStatus.Failed, RunStatus.Cancelled };
    var tags = new[] { ",gateway,2 cores,", ",direct,8 cores,", ",baseline,", null, null };
    var plans = BenchEngine.Presets.SeedPresets.All.Select(p => p.Plan.ToJson()).ToArray();
    var environmentJson = JsonSerializer.Serialize(BenchEngine.Metrics.ClientEnvironment.Capture(), RunPlan.JsonOptions);
    var start = DateTimeOffset.UtcNow.AddDays(-365);
    db.ChangeTracker.AutoDetectChangesEnabled = false;
    await using var transaction = await db.Database.BeginTransactionAsync();
    for (var i = 0; i < count; i++)
    {
        var status = statuses[random.Next(statuses.Length)];
        var throughput = 200 + random.NextDouble() * 4_000;
        db.Runs.Add(new BenchWeb.Data.RunEntity
        {
            ProfileName = $"Profile {i % 40}",
            PlanJson = plans[i % plans.Length],
            EnvironmentJson = environmentJson,
            SummaryJson = JsonSerializer.Serialize(new BenchEngine.Metrics.RunSummary
            {
                Elapsed = TimeSpan.FromSeconds(300),
                TotalOk = (long)(throughput * 300),
                AverageThroughput = throughput,
                MeanPerSecondThroughput = throughput,
                P99PerSecondThroughput = throughput * 1.2,
                Latency = new BenchEngine.Metrics.LatencySummary { Count = (long)(throughput * 300), MeanMs = 8, P50Ms = 6, P95Ms = 20, P96Ms = 22, P99Ms = 40, P999Ms = 80, MaxMs = 300 },
                RequestUnitsPerInsert = 6,
                ErrorsByStatus = new Dictionary<int, long> { [409] = 3 },
            }, RunPlan.JsonOptions),
            VerdictJson = i % 3 == 0 ? """{"passed":true,"checks":[{"name":"completed","passed":true,"message":"the run completed"}]}""" : null,
            Status = status,
            TargetKind = kinds[i % kinds.Length],
            TargetDescription = $"Seeded target {i % 7}",
            QueuedAt = start.AddMinutes(i * 50),
            ElapsedSeconds = 60 + random.Next(600),
            AverageThroughput = throughput,
            P99LatencyMs = 5 + random.NextDouble() * 200,
            ThrottledFraction = random.NextDouble() * 0.05,
            Verdict = i % 3 == 0 ? (throughput > 1_000 ? "Passed" : "Failed") : null,
            Tags = tags[i % tags.Length],
            Notes = i % 10 == 0 ? $"Seeded run {i}: notes a user might keep about this run." : null,
        });
        if (i % 1_000 == 999)
        {
            await db.SaveChangesAsync();
            db.ChangeTracker.Clear();
        }
    }

    await db.SaveChangesAsync();
    await transaction.CommitAsync();
}

// 9. Telemetry cost: what the BenchEngine meter adds to recording one response (RunRecorder.Record on one thread, a
// successful insert with its latency), with no listener (telemetry off: the dashboard's default) and with a
// MeterListener taking every measurement. Allocation is counted too: measuring must allocate nothing per response.
static void TelemetryCost()
{
    const int calls = 10_000_000;
    const int rounds = 7;
    Console.WriteLine($"## Telemetry cost (RunRecorder.Record, {calls:N0} calls a round, one thread; 1 warm-up + {rounds} rounds, alternating)");
    var ok = BenchEngine.Targets.OperationOutcome.Ok(201, 1, 5.0, 150);
    var latency = TimeSpan.FromMilliseconds(7.3);
    var plain = new BenchEngine.Metrics.RunRecorder();
    var tagged = new BenchEngine.Metrics.RunRecorder
    {
        Telemetry = new BenchEngine.Metrics.EngineTelemetry(new BenchEngine.Metrics.EngineTelemetryTags("1", "agent", 0, "NoOp")),
    };
    (double Ns, long Bytes) Measure(BenchEngine.Metrics.RunRecorder recorder)
    {
        var allocated = GC.GetAllocatedBytesForCurrentThread();
        var clock = Stopwatch.StartNew();
        for (var i = 0; i < calls; i++)
        {
            recorder.Record(ok, latency);

            // Seconds close as in a run (a snapshot each, the same for both), so the histogram stays a second's size.
            if ((i & 0xFFFF) == 0)
            {
                recorder.CloseSecond(0, TimeSpan.Zero, TimeSpan.FromSeconds(1), 0);
            }
        }

        return (clock.Elapsed.TotalNanoseconds / calls, GC.GetAllocatedBytesForCurrentThread() - allocated);
    }

    void Report(string what, List<(double Ns, long Bytes)> figures) =>
        Console.WriteLine($"{what}: median {Median([.. figures.Select(f => f.Ns)]):F1} ns a response (rounds {string.Join(", ", figures.Select(f => f.Ns.ToString("F1")))}); allocated {figures.Max(f => f.Bytes):N0} B a round");

    Measure(plain);
    Measure(tagged);
    var without = new List<(double, long)>();
    var off = new List<(double, long)>();
    for (var round = 0; round < rounds; round++)
    {
        without.Add(Measure(plain));
        off.Add(Measure(tagged));
    }

    using var listener = new System.Diagnostics.Metrics.MeterListener();
    double sink = 0;
    listener.InstrumentPublished = (instrument, l) =>
    {
        if (instrument.Meter.Name == BenchEngine.Metrics.EngineTelemetry.MeterName)
        {
            l.EnableMeasurementEvents(instrument);
        }
    };
    listener.SetMeasurementEventCallback<long>((_, value, _, _) => sink += value);
    listener.SetMeasurementEventCallback<double>((_, value, _, _) => sink += value);
    listener.Start();
    Measure(tagged);
    var on = new List<(double, long)>();
    for (var round = 0; round < rounds; round++)
    {
        on.Add(Measure(tagged));
    }

    Report("no telemetry (no instance)", without);
    Report("telemetry, no listener (off)", off);
    Report("telemetry, MeterListener", on);
    Console.WriteLine($"(listener saw {sink:E2})");
}

// 10. Runs spread over agents (shared mode): 1, 2 and 3 agent processes of the dashboard on one PostgreSQL and one Redis
// (tools/bench.sh starts them: BENCH_POSTGRES, BENCH_REDIS), the simulator with a latency-bound profile (20 ms median,
// 40 workers per agent: far below this machine's CPU), each agent count twice, alternating. The combined throughput
// should be N times one agent's; the run's p99 must be the p99 of the shards' histograms merged here independently.
async Task AgentsAsync()
{
    const int rounds = 2;
    const int workersPerAgent = 40;
    var database = Environment.GetEnvironmentVariable("BENCH_POSTGRES") ?? throw new InvalidOperationException("BENCH_POSTGRES is not set: run tools/bench.sh agents.");
    var redis = Environment.GetEnvironmentVariable("BENCH_REDIS") ?? throw new InvalidOperationException("BENCH_REDIS is not set: run tools/bench.sh agents.");
    Console.WriteLine($"## Agents (shared mode, 3 agent processes; simulator, 20 ms median latency, {workersPerAgent} workers per agent, 20 s; {rounds} rounds of 1, 2, 3 agents)");
    var agents = new List<DashboardProcess>();
    try
    {
        for (var i = 1; i <= 3; i++)
        {
            agents.Add(await DashboardProcess.StartAsync(new Dictionary<string, string>
            {
                ["BenchWeb__Mode"] = "Shared",
                ["ConnectionStrings__BenchDb"] = database,
                ["ConnectionStrings__Redis"] = redis,
                ["BenchWeb__Agent__Name"] = $"agent-{i}",
            }, port: null));
        }

        using var http = await agents[0].CreateSignedInClientAsync(TimeSpan.FromMinutes(2));
        await WaitForAsync(async () => (await http.GetFromJsonAsync<JsonElement>("api/agents")).EnumerateArray().Count(a => a.GetProperty("state").GetString() == "Alive") >= 3);
        var throughput = new Dictionary<int, List<double>> { [1] = [], [2] = [], [3] = [] };
        for (var round = 1; round <= rounds; round++)
        {
            foreach (var count in new[] { 1, 2, 3 })
            {
                var plan = new RunPlan
                {
                    Name = $"agents {count}, round {round}",
                    Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000_000, MedianLatencyMs = 20 } },
                    Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
                    Load = new LoadOptions { Concurrency = workersPerAgent * count, Agents = count },
                    Stop = new StopOptions { DurationSeconds = 20 },
                };
                using var launched = await http.PostAsync("api/runs", new StringContent($"{{\"plan\":{plan.ToJson()}}}", Encoding.UTF8, "application/json"));
                var runId = JsonDocument.Parse(await launched.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt64();
                JsonElement run = default;
                await WaitForAsync(async () => (run = await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}")).GetProperty("status").GetString() is not ("Queued" or "Running"));
                var summary = run.GetProperty("summary");
                var runP99 = summary.GetProperty("latency").GetProperty("p99Ms").GetDouble();
                var merged = count == 1 ? null : await MergedShardHistogramAsync(database, runId);
                throughput[count].Add(summary.GetProperty("averageThroughput").GetDouble());
                Console.WriteLine($"round {round}, {count} agent(s): {run.GetProperty("status").GetString()}, {summary.GetProperty("averageThroughput").GetDouble():N0}/s, p99 {runP99:N3} ms"
                    + (merged is null ? "" : $" (shards' histograms merged here: p99 {merged.MillisecondsAtPercentile(99):N3} ms over {merged.Count:N0} operations)"));
            }
        }

        var one = Median(throughput[1]);
        foreach (var count in new[] { 2, 3 })
        {
            Console.WriteLine($"{count} agents: median {Median(throughput[count]):N0}/s ÷ ({count} × {one:N0}/s) = {Median(throughput[count]) / (count * one):F3} (target ≥ 0.9)");
        }
    }
    finally
    {
        foreach (var agent in agents)
        {
            await agent.DisposeAsync();
        }
    }

    static async Task WaitForAsync(Func<Task<bool>> condition)
    {
        var clock = Stopwatch.StartNew();
        while (!await condition())
        {
            if (clock.Elapsed > TimeSpan.FromMinutes(3))
            {
                throw new TimeoutException("Waited 3 minutes.");
            }

            await Task.Delay(200);
        }
    }
}

static async Task<BenchEngine.Metrics.LatencyDistribution> MergedShardHistogramAsync(string database, long runId)
{
    await using var connection = new Npgsql.NpgsqlConnection(database);
    await connection.OpenAsync();
    await using var command = new Npgsql.NpgsqlCommand($"SELECT \"LatencyHistogram\" FROM \"RunShards\" WHERE \"RunId\" = {runId}", connection);
    await using var reader = await command.ExecuteReaderAsync();
    var merged = new BenchEngine.Metrics.LatencyDistribution();
    while (await reader.ReadAsync())
    {
        merged.Add(BenchEngine.Metrics.LatencyDistribution.Decode((byte[])reader[0]));
    }

    return merged;
}

static double Median(List<double> values)
{
    var sorted = values.Order().ToList();
    return sorted[sorted.Count / 2];
}

// 11. Client health: the same two plans, healthy for the client when the machine is quiet, alone and then beside two CPU hogs
// (processes of their own, as a user's other programs are). Every full second of a run beside the hogs is a starved second
// and should be judged client-limited; every full second of a run alone is a healthy one and should not. The open loop on the
// no-op target never has a request outstanding (its writes complete at once), so it may drop none, hogs or not.
async Task ClientHealthAsync()
{
    const int seconds = 20;
    Console.WriteLine($"## Client health ({seconds} s a run; alone, then beside two CPU hogs; every full second judged with the default bounds: {ClientLimits.Default.DescribeBounds()})");

    // Two light plans, which a full machine still serves (a core the moment they ask), and one that wants every core it can
    // get (the no-op closed loop), which beside the hogs gets a third of the machine: the starved client.
    var plans = new (RunPlan Plan, bool Light)[]
    {
        (new RunPlan
        {
            Name = "no-op open loop 5,000/s",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 5_000, Concurrency = 64 },
            Stop = new StopOptions { DurationSeconds = seconds },
        }, true),
        (new RunPlan
        {
            Name = "simulator, 32 workers, 20 ms median latency",
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 5_000_000, MedianLatencyMs = 20 } },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { DurationSeconds = seconds },
        }, true),
        (new RunPlan
        {
            Name = "no-op closed loop of 32",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { DurationSeconds = seconds },
        }, false),
    };
    var healthy = new List<SecondSnapshot>();
    var starved = new List<SecondSnapshot>();
    var served = new List<SecondSnapshot>();
    foreach (var (plan, light) in plans)
    {
        double? alone = null;
        foreach (var hogs in new[] { 0, 2 })
        {
            // A run alone measures healthy seconds only on a quiet machine: wait (at most a minute) until the host's CPU has
            // been below 15 % for two seconds in a row, as the build before it and the run before it leave it busy.
            var quiet = hogs == 0 ? await QuietHostAsync() : null;
            var load = LoadAverage() + (quiet is null ? "" : $", host CPU {quiet}");
            RunResult result;
            using (CpuHogs.Start(hogs))
            {
                result = await RunAsync(plan);
            }

            var full = result.Seconds.Where(second => second.IsFull).ToList();
            var s = result.Summary;
            (hogs == 0 ? (light ? healthy : null) : light ? served : starved)?.AddRange(full);
            alone ??= s.AverageThroughput;
            Console.WriteLine($"{plan.Name}, {(hogs == 0 ? "alone" : "beside two CPU hogs")} (load average before: {load}): {full.Count(x => x.IsClientLimited)} of {full.Count} full seconds client-limited "
                + $"({Kinds(full)}); host CPU median {Median([.. full.Select(x => x.Health?.HostCpuPercent ?? 0)]):F0} %, scheduling lag p99 median {Median([.. full.Select(x => x.Health?.SchedulingLagP99Ms ?? 0)]):F1} ms, "
                + $"this process median {Median([.. full.Select(x => x.ClientCpuPercent)]):F0} %; {s.AverageThroughput:N0}/s"
                + (hogs == 0 ? "" : $" ({s.AverageThroughput / alone:P0} of alone)"));
            foreach (var flagged in full.Where(x => x.IsClientLimited && light))
            {
                var h = flagged.Health;
                Console.WriteLine($"  flagged {(hogs == 0 ? "alone" : "beside the hogs")}: second {flagged.Index}: host CPU {h?.HostCpuPercent:F0} %, lag p50 {h?.SchedulingLagP50Ms:F1} / p99 {h?.SchedulingLagP99Ms:F1} / max {h?.SchedulingLagMaxMs:F1} ms, GC {h?.GcPauseMs:F1} ms, thread-pool queue {h?.ThreadPoolQueueMax}, this process {flagged.ClientCpuPercent:F0} %");
            }

            if (plan.Load.Model == LoadModel.OpenLoop)
            {
                Console.WriteLine($"  open loop: offered {s.TotalOffered:N0}, sent {s.TotalIssued:N0} ({s.TotalSentLate:N0} late), dropped {s.TotalDropped:N0} (must be 0: nothing was ever outstanding), not started at the stop {s.TotalNotStarted:N0}, accounts balance: {s.AccountsBalance}");
            }
        }
    }

    Console.WriteLine($"starved seconds (the no-op closed loop beside the hogs) detected as client-limited: {starved.Count(x => x.IsClientLimited)} of {starved.Count} = {Share(starved.Count(x => x.IsClientLimited), starved.Count):P1} (target ≥ 95 %)");
    Console.WriteLine($"healthy seconds (the light plans alone) flagged client-limited: {healthy.Count(x => x.IsClientLimited)} of {healthy.Count} = {Share(healthy.Count(x => x.IsClientLimited), healthy.Count):P1} (target < 1 %)");
    Console.WriteLine($"light plans beside the hogs (a full machine that still served them: see their throughput against alone) flagged: {served.Count(x => x.IsClientLimited)} of {served.Count} = {Share(served.Count(x => x.IsClientLimited), served.Count):P1}");

    static string Kinds(List<SecondSnapshot> full)
    {
        var counts = Enum.GetValues<ClientLimitKinds>().Where(k => k != ClientLimitKinds.None)
            .Select(k => (Kind: k, Count: full.Count(x => x.Health is { } h && h.Limits.HasFlag(k))))
            .Where(c => c.Count > 0)
            .Select(c => $"{c.Kind} {c.Count}");
        return string.Join(", ", counts) is { Length: > 0 } text ? "crossed: " + text : "no bound crossed";
    }

    static double Share(int part, int whole) => whole == 0 ? 0 : part / (double)whole;
}

// 12. Client health's cost: the engine's throughput with the health monitor on (the default) and off, on the target where the
// engine's own cost shows most (no-op, closed loop of 32: the client is all there is), alternating rounds.
async Task HealthCostAsync()
{
    const int rounds = 7;
    const long documents = 1_000_000;
    Console.WriteLine($"## Client health's cost (no-op target, closed loop of 32, {documents:N0} small documents a run; 1 warm-up each + {rounds} rounds, on and off alternating)");
    var plan = new RunPlan
    {
        Name = "health cost",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Load = new LoadOptions { Concurrency = 32 },
        Stop = new StopOptions { TotalDocuments = documents },
    };
    var withHealth = new BenchmarkRunner();
    var without = new BenchmarkRunner { ClientHealth = null };
    await withHealth.RunAsync(plan, context);
    await without.RunAsync(plan, context);
    var on = new List<double>();
    var off = new List<double>();
    for (var round = 0; round < rounds; round++)
    {
        on.Add((await withHealth.RunAsync(plan, context)).Summary.AverageThroughput);
        off.Add((await without.RunAsync(plan, context)).Summary.AverageThroughput);
    }

    Console.WriteLine($"health on: {string.Join(", ", on.Select(v => v.ToString("N0")))}/s; off: {string.Join(", ", off.Select(v => v.ToString("N0")))}/s; ratio of medians (on ÷ off) {Median(on) / Median(off):F3} (target ≥ 0.98)");
}

// 13. The run's clock: on its own thread, so a target whose writes complete at once (the no-op target, 256 workers that never
// give their threads back) cannot delay a second; and a warmed hot path, so the first second runs optimised code.
async Task ClockAsync()
{
    Console.WriteLine("## The run's clock (no-op target)");
    var closed = new RunPlan
    {
        Name = "clock, closed loop of 256",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Load = new LoadOptions { Concurrency = 256 },
        Stop = new StopOptions { DurationSeconds = 10 },
    };
    var (result, wall) = await TimedRunAsync(closed);
    var full = result.Seconds.Where(second => second.IsFull).ToList();
    Console.WriteLine($"closed loop of 256, 10 s: the run's clock {result.Summary.Elapsed.TotalSeconds:F3} s; wall-clock from the clock's start to the end of the run {wall.TotalSeconds:F3} s (target ≤ 10.1 s); "
        + $"{result.Seconds.Count} seconds, {full.Count} full, {full.Count(x => x.Ok == 0)} empty (target 0); a full second's inserts {full.Min(x => x.Ok):N0}–{full.Max(x => x.Ok):N0}; "
        + $"latest close {result.Seconds.Max(x => x.Health?.ClockLagMs ?? 0):F1} ms after its boundary; {result.Summary.AverageThroughput:N0}/s");

    var open = new RunPlan
    {
        Name = "clock, open loop 10,000/s",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10_000, Concurrency = 256 },
        Stop = new StopOptions { DurationSeconds = 5 },
    };
    var (opened, _) = await TimedRunAsync(open);
    var first = opened.Seconds[0];
    Console.WriteLine($"open loop 10,000/s, 5 s: second 0 sent {first.Issued:N0} ({first.SentLate:N0} late), dropped {first.Dropped:N0} (target 0), p99 {first.LatencyP99Ms:F2} ms; "
        + $"whole run sent {opened.Summary.TotalIssued:N0} of {opened.Summary.TotalOffered:N0}, dropped {opened.Summary.TotalDropped:N0}, sent late {opened.Summary.TotalSentLate:N0}, p99 {opened.Summary.Latency.P99Ms:F2} ms");

    async Task<(RunResult Result, TimeSpan Wall)> TimedRunAsync(RunPlan plan)
    {
        ClockWatchTarget? watched = null;
        var runner = new BenchmarkRunner(TimeProvider.System, (options, targetContext) => watched = new ClockWatchTarget(TargetRegistry.Create(options, targetContext)));
        var result = await runner.RunAsync(plan, context);
        var wall = Stopwatch.GetElapsedTime(watched!.ClockStart);
        if (result.Status != RunStatus.Completed)
        {
            throw new InvalidOperationException($"{plan.Name}: {result.Status} {result.FailureReason}");
        }

        return (result, wall);
    }
}

// The machine's load average over the last minute (Linux): the benchmark's machine may be shared.
// The host's CPU busy share over a second, as the client-health monitor reads it (null where the OS does not tell).
static async Task<double?> HostCpuOverASecondAsync()
{
    var before = BenchEngine.Metrics.HostCounters.ReadMachineCpu();
    await Task.Delay(TimeSpan.FromSeconds(1));
    var after = BenchEngine.Metrics.HostCounters.ReadMachineCpu();
    return before is { } b && after is { } a && a.Total > b.Total ? (a.Busy - b.Busy) * 100 / (a.Total - b.Total) : null;
}

// Waits, at most a minute, for two seconds in a row with the host's CPU below 15 %; says what it last measured.
static async Task<string> QuietHostAsync()
{
    var quietSeconds = 0;
    double? last = null;
    for (var i = 0; i < 60 && quietSeconds < 2; i++)
    {
        last = await HostCpuOverASecondAsync();
        quietSeconds = last is null or < 15 ? quietSeconds + 1 : 0;
    }

    return last is null ? "unknown" : $"{last:F0} % ({(quietSeconds >= 2 ? "quiet" : "still busy after a minute")})";
}

static string LoadAverage() => File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "unknown";

// 14. The engine's ceiling: the no-op target (nothing outstanding, nothing failing), so all there is is the client. Closed loops
// at several concurrencies (inserts/s, this process's CPU and bytes allocated per insert), open loops at rising rates (every
// due request sent? p99 from the intended start). Alternating rounds; medians.
async Task EngineCeilingAsync()
{
    const int rounds = 3;
    const long documents = 2_000_000;
    Console.WriteLine($"## Engine ceiling (no-op target, small documents; closed loop {documents:N0} documents a run, 1 warm-up + {rounds} rounds; load average {LoadAverage()})");
    // Without the engine's warm-up (0.3 s of its hot path before a run's clock starts, never measured): the warm-up round
    // warmed this process's code, and the warm-up's CPU and allocations would count in each run's per-insert figures.
    var runner = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
    RunPlan Closed(int concurrency) => new()
    {
        Name = $"no-op closed loop of {concurrency}",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Load = new LoadOptions { Concurrency = concurrency },
        Stop = new StopOptions { TotalDocuments = documents },
    };
    var concurrencies = new[] { 1, 8, 32, 256 };
    await runner.RunAsync(Closed(8), context);
    var figures = concurrencies.ToDictionary(c => c, _ => new List<(double Rate, double CpuUs, double Bytes)>());
    for (var round = 0; round < rounds; round++)
    {
        foreach (var concurrency in concurrencies)
        {
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var allocated = GC.GetTotalAllocatedBytes(precise: true);
            var result = await runner.RunAsync(Closed(concurrency), context);
            var spent = Process.GetCurrentProcess().TotalProcessorTime - cpu;
            var bytes = GC.GetTotalAllocatedBytes(precise: true) - allocated;
            var ok = result.Summary.TotalOk;
            figures[concurrency].Add((result.Summary.AverageThroughput, spent.TotalMicroseconds / ok, bytes / (double)ok));
        }
    }

    foreach (var (concurrency, runs) in figures)
    {
        Console.WriteLine($"closed loop of {concurrency}: {Median([.. runs.Select(r => r.Rate)]):N0} inserts/s (runs {string.Join(", ", runs.Select(r => r.Rate.ToString("N0")))}), "
            + $"{Median([.. runs.Select(r => r.CpuUs)]):F2} µs CPU and {Median([.. runs.Select(r => r.Bytes)]):N0} bytes allocated per insert (the whole process: the run's clock, health probe and summary included) "
            + "(targets: ≥ 1,000,000/s at c ≥ 8, ≤ 1 µs, ≤ 64 bytes)");
    }

    foreach (var rate in new[] { 10_000, 50_000, 200_000 })
    {
        var plan = new RunPlan
        {
            Name = $"no-op open loop {rate:N0}/s",
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = rate, Concurrency = 256 },
            Stop = new StopOptions { DurationSeconds = 10 },
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 100 },
        };
        var runs = new List<RunSummary>();
        for (var round = 0; round < rounds; round++)
        {
            runs.Add((await runner.RunAsync(plan, context)).Summary);
        }

        Console.WriteLine($"open loop {rate:N0}/s, 10 s, {rounds} runs: dropped {string.Join(", ", runs.Select(r => $"{r.TotalDropped:N0} ({r.TotalDropped * 100.0 / Math.Max(1, r.TotalOffered):F2} %)"))}; "
            + $"sent late {string.Join(", ", runs.Select(r => r.TotalSentLate.ToString("N0")))}; p99 from the intended start {string.Join(", ", runs.Select(r => $"{r.Latency.P99Ms:F2}"))} ms "
            + "(targets at 200,000/s: 0 dropped, p99 ≤ 1 ms)");
    }
}

// 15. Redis beside its own C client: redis-benchmark and the engine, the same server, 1 KB values, 50 clients, one SET a request
// and pipelines of 10, alternating rounds. Throughput each, and CPU per SET: the engine's from this process's CPU time, the
// peer's from its own (read from /proc after it exited, as this process's children's time).
async Task RedisPeerAsync(int port)
{
    const int rounds = 5;
    const int clients = 50;
    const int requests = 300_000;
    Console.WriteLine($"## Redis beside redis-benchmark (127.0.0.1:{port}, 1 KB values, {clients} clients, {requests:N0} SETs a run; 1 warm-up + {rounds} rounds alternating; load average {LoadAverage()})");
    // Without the engine's warm-up (0.3 s of its hot path before a run's clock starts, never measured): the warm-up round
    // warmed this process's code, and the warm-up's CPU and allocations would count in each run's per-insert figures.
    var runner = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
    foreach (var pipeline in new[] { 1, 10 })
    {
        var plan = new RunPlan
        {
            Name = $"redis, pipelines of {pipeline}",
            Target = new TargetOptions
            {
                Kind = TargetKind.Redis,
                Operation = WriteOperation.Upsert,
                Redis = new RedisOptions { Host = "127.0.0.1", Port = port, UseTls = false, UseAccessKey = false, KeyPrefix = "peer:" },
            },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = 1_024 },
            Load = new LoadOptions { Concurrency = clients, BatchSize = pipeline },
            Stop = new StopOptions { TotalDocuments = requests },
        };
        var peer = new List<(double Rate, double CpuUs)>();
        var engine = new List<(double Rate, double CpuUs, double P99Ms)>();
        await PeerAsync(pipeline);
        await EngineAsync(plan);
        for (var round = 0; round < rounds; round++)
        {
            peer.Add(await PeerAsync(pipeline));
            engine.Add(await EngineAsync(plan));
        }

        var ratio = Median([.. engine.Select(r => r.Rate)]) / Median([.. peer.Select(r => r.Rate)]);
        Console.WriteLine($"-P {pipeline}: redis-benchmark {Median([.. peer.Select(r => r.Rate)]):N0} SETs/s ({string.Join(", ", peer.Select(r => r.Rate.ToString("N0")))}), {Median([.. peer.Select(r => r.CpuUs)]):F1} µs CPU a SET; "
            + $"BenchWeb {Median([.. engine.Select(r => r.Rate)]):N0}/s ({string.Join(", ", engine.Select(r => r.Rate.ToString("N0")))}), {Median([.. engine.Select(r => r.CpuUs)]):F1} µs CPU a SET, p99 {Median([.. engine.Select(r => r.P99Ms)]):F2} ms a request; "
            + $"ratio {ratio:F2} (target ≥ {(pipeline == 1 ? "1.0" : "0.8")})");
    }

    // Each run starts on an empty server, so neither side pays for the other's keys (the engine's ids are new every run).
    async Task FlushAsync()
    {
        using var flush = Process.Start(new ProcessStartInfo("redis-cli", $"-h 127.0.0.1 -p {port} flushall") { RedirectStandardOutput = true })!;
        await flush.StandardOutput.ReadToEndAsync();
        await flush.WaitForExitAsync();
    }

    async Task<(double Rate, double CpuUs, double P99Ms)> EngineAsync(RunPlan plan)
    {
        await FlushAsync();
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var result = await runner.RunAsync(plan, context);
        var spent = Process.GetCurrentProcess().TotalProcessorTime - cpu;
        if (result.Summary.TotalOk != requests || result.Status != RunStatus.Completed)
        {
            throw new InvalidOperationException($"{plan.Name}: {result.Status}, {result.Summary.TotalOk:N0} of {requests:N0} SETs landed; {result.FailureReason}");
        }

        // The whole run's inserts over its elapsed time, as redis-benchmark reports its own.
        return (result.Summary.TotalOk / result.Summary.Elapsed.TotalSeconds, spent.TotalMicroseconds / result.Summary.TotalOk, result.Summary.Latency.P99Ms ?? double.NaN);
    }

    async Task<(double Rate, double CpuUs)> PeerAsync(int pipeline)
    {
        await FlushAsync();
        var before = ChildrenCpu();
        var start = new ProcessStartInfo("redis-benchmark", $"-h 127.0.0.1 -p {port} -t set -d 1024 -c {clients} -P {pipeline} -n {requests} -q --csv") { RedirectStandardOutput = true };
        using var process = Process.Start(start)!;
        var output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        var spent = ChildrenCpu() - before;
        // --csv: "test","rps","avg_latency_ms",… and a line per test: "SET","123456.79",…
        var line = output.Split('\n').First(l => l.StartsWith("\"SET\"", StringComparison.Ordinal));
        var rate = double.Parse(line.Split(',')[1].Trim('"'), CultureInfo.InvariantCulture);
        return (rate, spent.TotalMicroseconds / requests);
    }

    // The CPU time of this process's children that have been waited for (cutime + cstime of /proc/self/stat, in clock ticks).
    static TimeSpan ChildrenCpu()
    {
        var stat = File.ReadAllText("/proc/self/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        // After the name: field 3 (state) is fields[0], so cutime (16) and cstime (17) are fields[13] and fields[14].
        var ticks = long.Parse(fields[13], CultureInfo.InvariantCulture) + long.Parse(fields[14], CultureInfo.InvariantCulture);
        return TimeSpan.FromSeconds(ticks / 100.0);
    }
}

// 16. Table transactions on Azurite: waves with a barrier against a sliding window, and Microsoft's Node SDK beside both
// (tools/peers/tables-peer.mjs, a bare sliding window of its own), 100-entity transactions of the engine's flight documents,
// alternating rounds. Throughput each, the client's CPU per entity (the engine's from this process's CPU time, the peer's
// from its own), and Azurite's CPU per entity and its share of one core (from /proc/PID/stat): Node runs Azurite's
// JavaScript on one thread, so near 100 % of a core it, not the client or the window, is the limit.
async Task TablePeerAsync()
{
    const int rounds = 3;
    const int total = 20_000;
    const int batch = 100;
    var connection = tables ?? throw new InvalidOperationException("BENCH_TABLES_CONNECTION_STRING: tools/bench.sh table-peer starts Azurite and sets it.");
    var azurite = int.Parse(Environment.GetEnvironmentVariable("BENCH_AZURITE_PID") ?? throw new InvalidOperationException("BENCH_AZURITE_PID: tools/bench.sh table-peer starts Azurite and sets it."), CultureInfo.InvariantCulture);
    var peerScript = Path.GetFullPath("tools/peers/tables-peer.mjs");
    var entities = Path.Combine(Path.GetTempPath(), $"benchweb-flights-{Guid.NewGuid():N}.json");
    using (var source = DocumentSourceFactory.Create(new WorkloadOptions { Shape = DocumentShape.Flight }, TimeProvider.System))
    {
        var sample = new List<Dictionary<string, object?>>();
        while (sample.Count < 1_000 && source.TryNext(out var document))
        {
            sample.Add(document.Fields.Where(f => f.Key is not ("PartitionKey" or "RowKey" or "Timestamp" or "id")).ToDictionary(f => f.Key, f => f.Value));
        }

        await File.WriteAllTextAsync(entities, JsonSerializer.Serialize(sample));
    }

    Console.WriteLine($"## Table transactions on Azurite ({batch}-entity transactions of flight documents, {total:N0} entities a run; 1 warm-up + {rounds} rounds alternating; load average {LoadAverage()})");
    // Without the engine's warm-up (0.3 s of its hot path before a run's clock starts, never measured): round 0, discarded,
    // warmed this process's code, and the warm-up's CPU would count as 15 µs an entity of a 20,000-entity run.
    var runner = new BenchmarkRunner { WarmUp = TimeSpan.Zero };
    var service = new TableServiceClient(connection);
    try
    {
        foreach (var concurrency in new[] { 10, 32 })
        {
            var waves = new List<Measured>();
            var window = new List<Measured>();
            var node = new List<Measured>();
            for (var round = 0; round <= rounds; round++)
            {
                var w = await EngineAsync(LoadModel.Waves, concurrency);
                var c = await EngineAsync(LoadModel.ClosedLoop, concurrency);
                var n = await PeerAsync(concurrency);
                if (round > 0)
                {
                    waves.Add(w);
                    window.Add(c);
                    node.Add(n);
                }
            }

            Console.WriteLine($"concurrency {concurrency}: {Line("waves", waves)} · {Line("sliding window", window)} · {Line("Node SDK", node)}; "
                + $"window ÷ waves {Median([.. window.Select(m => m.Rate)]) / Median([.. waves.Select(m => m.Rate)]):F2}, "
                + $"engine window ÷ Node SDK {Median([.. window.Select(m => m.Rate)]) / Median([.. node.Select(m => m.Rate)]):F2}, "
                + $"client CPU per entity engine ÷ Node SDK {Median([.. window.Select(m => m.ClientUs)]) / Median([.. node.Select(m => m.ClientUs)]):F2}");
        }
    }
    finally
    {
        File.Delete(entities);
    }

    static string Line(string what, List<Measured> runs) =>
        $"{what} {Median([.. runs.Select(m => m.Rate)]):N0} entities/s ({string.Join(", ", runs.Select(m => m.Rate.ToString("N0")))}), "
        + $"client {Median([.. runs.Select(m => m.ClientUs)]):F1} µs CPU an entity, Azurite {Median([.. runs.Select(m => m.ServerUs)]):F1} µs an entity "
        + $"({Median([.. runs.Select(m => m.ServerCore)]):P0} of a core)";

    async Task<Measured> EngineAsync(LoadModel model, int concurrency)
    {
        var plan = TablePlan(model == LoadModel.Waves ? "waves" : "window", concurrency, total, batch, model);
        var server = ProcessCpu(azurite);
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var result = await RunAsync(plan, runner: runner);
        var spent = Process.GetCurrentProcess().TotalProcessorTime - cpu;
        var served = ProcessCpu(azurite) - server;
        await service.DeleteTableAsync(plan.Target.Tables!.TableName);
        if (result.Summary.TotalOk != total)
        {
            throw new InvalidOperationException($"{plan.Name}: {result.Summary.TotalOk:N0} of {total:N0} entities landed.");
        }

        var seconds = result.Summary.Elapsed.TotalSeconds;
        return new Measured(total / seconds, spent.TotalMicroseconds / total, served.TotalMicroseconds / total, served.TotalSeconds / seconds);
    }

    async Task<Measured> PeerAsync(int concurrency)
    {
        var start = new ProcessStartInfo("node") { RedirectStandardOutput = true };
        var table = "n" + Guid.NewGuid().ToString("N")[..12];
        foreach (var arg in new[] { peerScript, entities, concurrency.ToString(CultureInfo.InvariantCulture), total.ToString(CultureInfo.InvariantCulture), batch.ToString(CultureInfo.InvariantCulture), table })
        {
            start.ArgumentList.Add(arg);
        }

        var server = ProcessCpu(azurite);
        using var process = Process.Start(start)!;
        var output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        var served = ProcessCpu(azurite) - server;
        await service.DeleteTableAsync(table);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"The Node peer exited with {process.ExitCode}.");
        }

        var line = JsonDocument.Parse(output.Trim().Split('\n')[^1]).RootElement;
        var landed = line.GetProperty("entities").GetDouble();
        var seconds = line.GetProperty("seconds").GetDouble();
        return new Measured(landed / seconds, line.GetProperty("cpuMs").GetDouble() * 1_000 / landed, served.TotalMicroseconds / landed, served.TotalSeconds / seconds);
    }

    // A process's user + system CPU time so far (utime and stime of /proc/PID/stat, in clock ticks).
    static TimeSpan ProcessCpu(int pid)
    {
        var stat = File.ReadAllText($"/proc/{pid}/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        // After the name: field 3 (state) is fields[0], so utime (14) and stime (15) are fields[11] and fields[12].
        var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        return TimeSpan.FromSeconds(ticks / 100.0);
    }
}

/// <summary>One run of a table-peer side: entities a second, client CPU and Azurite CPU per entity (µs), and Azurite's share
/// of one core over the run.</summary>
internal readonly record struct Measured(double Rate, double ClientUs, double ServerUs, double ServerCore);
