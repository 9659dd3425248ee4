using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchmarkDotNet.Attributes;

namespace HotPath;

/// <summary>One insert through the whole engine on the no-op target with the slowest requests' diagnostics off, at the default
/// (the slowest of every second) and with every request a candidate (threshold 0, ten described a second): what keeping them
/// costs a request, in time and bytes. A run of <see cref="Documents"/> inserts is one invocation.</summary>
[MemoryDiagnoser]
[SimpleJob(launchCount: 1, warmupCount: 2, iterationCount: 15)]
public class DiagnosticsBenchmarks
{
    /// <summary>Inserts a run; the run's own start and end are spread over them.</summary>
    public const int Documents = 200_000;

    private static readonly TargetContext Context = new(TimeProvider.System, _ => null);

    private readonly BenchmarkRunner _runner = new() { WarmUp = TimeSpan.Zero };
    private RunPlan _plan = new();

    /// <summary>Which requests keep their diagnostics.</summary>
    [Params("off", "default", "threshold 0")]
    public string Diagnostics { get; set; } = "default";

    [GlobalSetup]
    public void Setup() => _plan = new RunPlan
    {
        Name = "diagnostics",
        Target = new TargetOptions { Kind = TargetKind.NoOp },
        Load = new LoadOptions { Concurrency = 8 },
        Stop = new StopOptions { TotalDocuments = Documents },
        Diagnostics = Diagnostics switch
        {
            "off" => new DiagnosticsOptions { SlowestPerSecond = 0 },
            "threshold 0" => new DiagnosticsOptions { ThresholdMs = 0 },
            _ => DiagnosticsOptions.Default,
        },
    };

    [Benchmark(OperationsPerInvoke = Documents)]
    public async Task<long> Insert()
    {
        var result = await _runner.RunAsync(_plan, Context).ConfigureAwait(false);
        return result.Summary.TotalOk == Documents
            ? result.Summary.TotalOk
            : throw new InvalidOperationException($"{result.Status}: {result.Summary.TotalOk:N0} of {Documents:N0}; {result.FailureReason}");
    }
}
