using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Azure.Data.Tables;
using BenchEngine.Running;
using BenchEngine.Workloads;
using static Benchmarks.CpuTimes;
using static Benchmarks.HostLoad;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>17. Table transactions on Azurite: waves with a barrier against a sliding window, and Microsoft's Node SDK beside both
/// (tools/peers/tables-peer.mjs, a bare sliding window of its own), 100-entity transactions of the engine's flight documents,
/// alternating rounds. Throughput each, the client's CPU per entity (the engine's from this process's CPU time, the peer's
/// from its own), and Azurite's CPU per entity and its share of one core (from /proc/PID/stat): Node runs Azurite's
/// JavaScript on one thread, so near 100 % of a core it, not the client or the window, is the limit.</summary>
internal sealed class TablePeerBenchmark : IBenchmark
{
    public string Name => "table-peer";

    public async Task RunAsync(BenchmarkHost host)
    {
        const int rounds = 3;
        const int total = 20_000;
        const int batch = 100;
        var connection = host.Tables ?? throw new InvalidOperationException("BENCH_TABLES_CONNECTION_STRING: tools/bench.sh table-peer starts Azurite and sets it.");
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
            var plan = BenchmarkHost.TablePlan(model == LoadModel.Waves ? "waves" : "window", concurrency, total, batch, model);
            var server = ProcessCpu(azurite);
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var result = await host.RunAsync(plan, runner: runner);
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
    }

    /// <summary>One run of a table-peer side: entities a second, client CPU and Azurite CPU per entity (µs), and Azurite's share
    /// of one core over the run.</summary>
    private readonly record struct Measured(double Rate, double ClientUs, double ServerUs, double ServerCore);
}
