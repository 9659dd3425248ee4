using System.Diagnostics.Metrics;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class EngineTelemetryTests
{
    [Theory]
    [InlineData(9)]
    [InlineData(0)]
    public async Task RunAsync_InstrumentSums_EqualTheSummaryTotals_WhenThrottled(int maxRetries)
    {
        var tags = new EngineTelemetryTags(Guid.NewGuid().ToString("N"), "agent-7", 3, "Simulated");
        using var measured = new MeasuredRun(tags.RunId);
        var time = SteppedClock.Create();
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 1_000, Indexing = IndexingMode.None } },
            Load = new LoadOptions { Concurrency = 32, Throttling = new ThrottleOptions { MaxRetries = maxRetries } },
            Stop = new StopOptions { DurationSeconds = 3 },
        };
        var context = new TargetContext(TimeProvider.System, _ => null) { Telemetry = tags };

        var result = await SteppedClock.RunAsync(time, () => new BenchmarkRunner(time).RunAsync(plan, context), TimeSpan.FromMinutes(2));

        var summary = result.Summary;
        Assert.True(summary.TotalThrottled > 0, "32 workers against 200 inserts/s must be throttled");
        if (maxRetries == 0)
        {
            Assert.True(summary.TotalGivenUp > 0, "with no retries every throttled request gives its document up");
        }

        Assert.Equal(summary.TotalOk, measured.Sum(EngineTelemetry.DocumentsInsertedName));
        Assert.Equal(summary.TotalOkRequests, measured.Sum(EngineTelemetry.RequestsOkName));
        Assert.Equal(summary.TotalThrottled, measured.Sum(EngineTelemetry.ThrottledName));
        Assert.Equal(summary.TotalErrors, measured.Sum(EngineTelemetry.ErrorsName));
        Assert.Equal(summary.TotalGivenUp, measured.Sum(EngineTelemetry.DocumentsGivenUpName));
        Assert.Equal(summary.TotalRequestUnits!.Value, measured.Sum(EngineTelemetry.RequestUnitsName), 6);
        Assert.Equal(result.Seconds.Sum(s => s.Bytes), measured.Sum(EngineTelemetry.BytesName));
        Assert.Equal(summary.TotalOkRequests, measured.Count(EngineTelemetry.OperationDurationName));
        Assert.Equal(summary.Latency.Count, measured.Count(EngineTelemetry.OperationDurationName));
        Assert.All(measured.TagSets, set => Assert.Equal(
            new Dictionary<string, object?>
            {
                [EngineTelemetry.RunIdTag] = tags.RunId,
                [EngineTelemetry.AgentTag] = "agent-7",
                [EngineTelemetry.ShardIndexTag] = 3,
                [EngineTelemetry.TargetKindTag] = "Simulated",
            },
            set));
    }

    [Fact]
    public async Task RunAsync_LatencyMeasurements_AreTheSummaryLatencies()
    {
        var tags = new EngineTelemetryTags(Guid.NewGuid().ToString("N"), "agent", 0, "Simulated");
        using var measured = new MeasuredRun(tags.RunId);
        var time = SteppedClock.Create();
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 100_000, Indexing = IndexingMode.None, MedianLatencyMs = 20 } },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { TotalDocuments = 200 },
        };
        var context = new TargetContext(TimeProvider.System, _ => null) { Telemetry = tags };

        var result = await SteppedClock.RunAsync(time, () => new BenchmarkRunner(time).RunAsync(plan, context), TimeSpan.FromMinutes(2));

        // The histogram's values are the recorder's, so their largest is the summary's maximum (to the histogram's precision).
        var latencies = measured.Values(EngineTelemetry.OperationDurationName);
        Assert.Equal(200, latencies.Count);
        var max = result.Summary.Latency.MaxMs!.Value;
        Assert.InRange(latencies.Max(), max * 0.99, max * 1.01);
        Assert.All(latencies, ms => Assert.True(ms > 0, $"{ms} ms"));
    }

    [Fact]
    public async Task RunAsync_WithoutTags_StillMeasures_WithNoTags()
    {
        using var measured = new MeasuredRun(runId: null);
        var plan = new RunPlan { Stop = new StopOptions { TotalDocuments = 50 } };

        var result = await new BenchmarkRunner().RunAsync(plan, new TargetContext(TimeProvider.System, _ => null));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.True(measured.Sum(EngineTelemetry.DocumentsInsertedName) >= 50, "runs of other tests may add theirs");
    }

    /// <summary>Listens to the engine's meter, keeping one run's measurements (tests run side by side and the meter is
    /// the process's). A null run id keeps the measurements that carry no tags.</summary>
    private sealed class MeasuredRun : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly Lock _gate = new();
        private readonly Dictionary<string, List<double>> _values = [];
        private readonly List<Dictionary<string, object?>> _tagSets = [];
        private readonly string? _runId;

        public MeasuredRun(string? runId)
        {
            _runId = runId;
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == EngineTelemetry.MeterName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Add(instrument, value, tags));
            _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Add(instrument, value, tags));
            _listener.Start();
        }

        public IReadOnlyList<Dictionary<string, object?>> TagSets
        {
            get
            {
                lock (_gate)
                {
                    Assert.NotEmpty(_tagSets);
                    return [.. _tagSets];
                }
            }
        }

        public double Sum(string instrument) => Values(instrument).Sum();

        public int Count(string instrument) => Values(instrument).Count;

        public List<double> Values(string instrument)
        {
            lock (_gate)
            {
                return _values.TryGetValue(instrument, out var values) ? [.. values] : [];
            }
        }

        private void Add(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var set = new Dictionary<string, object?>();
            foreach (var (key, tag) in tags)
            {
                set[key] = tag;
            }

            if (_runId is null ? set.Count != 0 : !Equals(set.GetValueOrDefault(EngineTelemetry.RunIdTag), _runId))
            {
                return;
            }

            lock (_gate)
            {
                if (!_values.TryGetValue(instrument.Name, out var values))
                {
                    _values[instrument.Name] = values = [];
                }

                values.Add(value);
                _tagSets.Add(set);
            }
        }

        public void Dispose() => _listener.Dispose();
    }
}
