using System.Diagnostics;
using static Benchmarks.Statistics;

namespace Benchmarks;

/// <summary>9. Telemetry cost: what the BenchEngine meter adds to recording one response (RunRecorder.Record on one thread, a
/// successful insert with its latency), with no listener (telemetry off: the dashboard's default) and with a
/// MeterListener taking every measurement. Allocation is counted too: measuring must allocate nothing per response.</summary>
internal sealed class TelemetryCostBenchmark : IBenchmark
{
    public string Name => "telemetry-cost";

    public Task RunAsync(BenchmarkHost host)
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

        return Task.CompletedTask;
    }
}
