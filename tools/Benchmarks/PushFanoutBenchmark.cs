using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Hubs;
using Microsoft.AspNetCore.SignalR.Client;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>6a. The server's own fan-out: the run of push latency (10,000 RU/s, concurrency 32, 90 s) watched by 20 SignalR
/// .NET clients on the runs hub (<c>BENCH_VIEWERS</c> sets another number) instead of Chromium pages: from the engine
/// closing a second to its message arriving in each client, with no browser renderer sharing the cores.
/// <c>push-fanout-shared</c>: the run on one instance, every client on the other (through the Redis backplane).</summary>
internal sealed class PushFanoutBenchmark(bool shared = false) : IBenchmark
{
    public string Name => shared ? "push-fanout-shared" : "push-fanout";

    // The shared variant needs PostgreSQL and Redis (tools/bench.sh push-fanout-shared starts them).
    public bool RunsUnderAll => !shared;

    public async Task RunAsync(BenchmarkHost host)
    {
        const int duration = 90;
        var viewers = PushViewers.Count();
        Console.WriteLine($"## Push fan-out (simulator quick start: 10,000 RU/s, concurrency 32, {duration} s; {viewers} SignalR .NET clients on the runs hub from its start"
            + (shared ? "; shared mode: the run on one instance, the clients on another)" : ")"));
        await using var instances = await PushInstances.StartAsync(shared);
        using var http = await instances.Runner.CreateSignedInClientAsync();
        var cookies = await instances.Viewers.SessionAsync();
        var received = new ConcurrentBag<(int Client, double Ms, int Bytes)>();
        var clients = new List<HubConnection>();
        try
        {
            for (var i = 0; i < viewers; i++)
            {
                var client = i;
                var hub = new HubConnectionBuilder()
                    .WithUrl(new Uri(instances.Viewers.BaseAddress, RunsHub.Path.TrimStart('/')), options => options.Cookies = cookies)
                    .Build();
                hub.On<JsonElement, JsonElement>(RunsHub.SecondMessage, (second, _) =>
                {
                    var arrived = DateTimeOffset.UtcNow;
                    var closedAt = second.GetProperty("closedAt").GetDateTimeOffset();
                    received.Add((client, (arrived - closedAt).TotalMilliseconds, second.GetRawText().Length));
                });
                clients.Add(hub);
            }

            await Task.WhenAll(clients.Select(c => c.StartAsync()));
            var plan = new RunPlan
            {
                Name = "push fan-out",
                Target = new TargetOptions { Kind = TargetKind.Simulated, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 10_000 } },
                Load = new LoadOptions { Concurrency = 32 },
                Stop = new StopOptions { DurationSeconds = duration },
            };
            using var launched = await http.PostAsync("api/runs", new StringContent($"{{\"plan\":{plan.ToJson()}}}", Encoding.UTF8, "application/json"));
            var body = await launched.Content.ReadAsStringAsync();
            if (!launched.IsSuccessStatusCode)
            {
                throw new InvalidOperationException($"Launching answered {(int)launched.StatusCode}: {body}");
            }

            var runId = JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt64();
            // Every client joins at once, as a team opening the run would; the seconds saved before come with the join, not live.
            await Task.WhenAll(clients.Select(c => c.InvokeAsync<JsonElement>("JoinRun", runId)));
            var clock = Stopwatch.StartNew();
            string status;
            while ((status = (await http.GetFromJsonAsync<JsonElement>($"api/runs/{runId}")).GetProperty("status").GetString()!) is "Queued" or "Running")
            {
                if (clock.Elapsed > TimeSpan.FromSeconds(duration + 120))
                {
                    throw new TimeoutException($"The run was still {status} after {clock.Elapsed.TotalSeconds:N0} s.");
                }

                await Task.Delay(500);
            }

            // The last messages are on their way when the row says it ended.
            await Task.Delay(1000);
            var perClient = Enumerable.Range(0, viewers).Select(c => received.Count(r => r.Client == c)).ToList();
            if (perClient.Min() < 60)
            {
                throw new InvalidOperationException($"A client had only {perClient.Min()} seconds arrive live (run {status}); the measurement needs at least 60 on each.");
            }

            var latencies = received.Select(r => r.Ms).Order().ToList();
            Console.WriteLine($"{viewers} clients, run {status}, seconds pushed live: {latencies.Count} ({perClient.Min()}–{perClient.Max()} a client), {received.Average(r => r.Bytes):N0} bytes of JSON a second");
            Console.WriteLine($"  received: p50 {NearestRank(latencies, 0.50):N0} ms · p95 {NearestRank(latencies, 0.95):N0} ms · max {latencies[^1]:N0} ms (target p95 ≤ 250 ms)");
            Console.WriteLine($"  load average (1 min) at the end: {HostLoad.LoadAverage()}");
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }
}
