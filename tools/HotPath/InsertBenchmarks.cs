using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchmarkDotNet.Attributes;

namespace HotPath;

/// <summary>One insert through the whole engine — document, executor, recorder, the run's clock and client health — on the
/// no-op target, which completes every write at once: time and bytes allocated per insert, for each workload shape and load
/// model. A run of <see cref="Documents"/> inserts is one invocation.</summary>
[MemoryDiagnoser]
[SimpleJob(launchCount: 1, warmupCount: 2, iterationCount: 7)]
public class InsertBenchmarks
{
    /// <summary>Inserts a run; the run's own start and end (plan checks, client-health monitor, summary) are spread over them.</summary>
    public const int Documents = 200_000;

    private static readonly TargetContext Context = new(TimeProvider.System, _ => null);

    // No warm-up of the engine's own: BenchmarkDotNet's warm-up iterations are one.
    private readonly BenchmarkRunner _runner = new() { WarmUp = TimeSpan.Zero };
    private RunPlan _plan = new();

    [Params(DocumentShape.SmallDto, DocumentShape.PerformanceData, DocumentShape.BulkRecord, DocumentShape.Flight)]
    public DocumentShape Shape { get; set; }

    /// <summary>Closed loop of 8; open loop at 1,000,000 a second with 256 outstanding at most, which the no-op target never
    /// reaches: the loop sends as fast as it can keep its schedule.</summary>
    [Params(LoadModel.ClosedLoop, LoadModel.OpenLoop)]
    public LoadModel Model { get; set; }

    [GlobalSetup]
    public void Setup() => _plan = new RunPlan
    {
        Name = "hot path",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Workload = new WorkloadOptions { Shape = Shape },
        Load = Model == LoadModel.ClosedLoop
            ? new LoadOptions { Concurrency = 8 }
            : new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 1_000_000, Concurrency = 256 },
        Stop = new StopOptions { TotalDocuments = Documents },

        // The open loop's unsent share is reported, not judged, here (the closed loop sends every one).
        Thresholds = Model == LoadModel.OpenLoop ? new ThresholdOptions { MaxDroppedPercent = 100 } : new ThresholdOptions(),
    };

    [Benchmark(OperationsPerInvoke = Documents)]
    public async Task<long> Insert()
    {
        var result = await _runner.RunAsync(_plan, Context).ConfigureAwait(false);
        return result.Summary.TotalOk + result.Summary.TotalDropped == Documents
            ? result.Summary.TotalOk
            : throw new InvalidOperationException($"{result.Status}: {result.Summary.TotalOk:N0} of {Documents:N0}; {result.FailureReason}");
    }
}
