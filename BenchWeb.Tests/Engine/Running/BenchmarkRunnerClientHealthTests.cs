using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The client's health rides with every second, its verdict reaches the summary, an open loop that could not deliver
/// its schedule says so, and the warm-up before the clock is never measured.</summary>
public partial class BenchmarkRunnerTests
{
    private static readonly ClientHealth StarvedHealth = new()
    {
        HostCpuPercent = 100,
        SchedulingLagP99Ms = 180,
        Limits = ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag,
    };

    [Fact]
    public async Task RunAsync_EverySecondCarriesTheClientsHealth_AndTheSummaryNamesTheStarvedSeconds()
    {
        var time = SteppedClock.Create();
        var script = new ScriptedHealth(second => second is 2 or 3 ? StarvedHealth : new ClientHealth { HostCpuPercent = 30 });
        var runner = new BenchmarkRunner(time, (options, context) => new SlowTarget(TimeSpan.FromMilliseconds(20), time)) { ClientHealth = _ => script };
        var observer = new RecordingObserver();
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 6 } };

        var result = await RunSteppedAsync(runner, time, plan, observer);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.All(result.Seconds, s => Assert.NotNull(s.Health));
        Assert.Equal(result.Seconds.Select(s => s.Health), observer.Seconds.Select(s => s.Health));
        var span = Assert.Single(result.Summary.ClientLimitedSpans);
        Assert.StartsWith("seconds 2–3: the client was starved: scheduling lag p99 180 ms, host CPU 100 %, this process ", span.Describe(), StringComparison.Ordinal);
        Assert.True(result.Summary.ClientBound);
        Assert.Equal(2, result.Summary.PerSecondLeftOut);
        Assert.True(script.Started);
    }

    [Fact]
    public async Task RunAsync_ClosingSecondOfAFewHundredMilliseconds_KeepsItsHealth_Unjudged()
    {
        // Every sample reads starved; the run ends 200 ms into its second second (60 documents of 20 ms, one at a time). Over a
        // few milliseconds one busy tick of the machine reads 100 %: the closing second is no basis for a verdict.
        var time = SteppedClock.Create();
        var script = new ScriptedHealth(_ => StarvedHealth);
        var runner = new BenchmarkRunner(time, (options, context) => new SlowTarget(TimeSpan.FromMilliseconds(20), time)) { ClientHealth = _ => script };
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { TotalDocuments = 60 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(2, result.Seconds.Count);
        var (whole, closing) = (result.Seconds[0], result.Seconds[1]);
        Assert.True(closing.Duration < SecondSnapshot.ShortestJudged, $"The closing second lasted {closing.Duration}.");
        Assert.Equal(StarvedHealth.Limits, whole.Health!.Limits);
        Assert.Equal(ClientLimitKinds.None, closing.Health!.Limits);
        Assert.Equal(100, closing.Health.HostCpuPercent);
        Assert.Equal(1, result.Summary.ClientLimitedSeconds);
    }

    [Fact]
    public async Task RunAsync_SecondsHaveNoHealth_WhenClientHealthIsSwitchedOff()
    {
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time, (options, context) => new SlowTarget(TimeSpan.FromMilliseconds(20), time)) { ClientHealth = null };
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 2 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.All(result.Seconds, s => Assert.Null(s.Health));
        Assert.Null(result.Summary.WorstClientSecond);
    }

    [Fact]
    public async Task RunAsync_OpenLoopThatLeftMostOfItsScheduleUnsent_EndsFailedWithTheReason()
    {
        // 50 requests a second offered, one outstanding at a time, each 200 ms: four fifths can never be sent.
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(200), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 3 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.StartsWith("The open loop did not deliver its schedule: ", result.FailureReason, StringComparison.Ordinal);
        Assert.Contains("limit 10 %; a plan's thresholds.maxDroppedPercent sets its own", result.FailureReason, StringComparison.Ordinal);
        Assert.True(result.Summary.AccountsBalance);
    }

    [Fact]
    public async Task RunAsync_OpenLoopThatLeftMostOfItsScheduleUnsent_IsJudgedByThePlansThreshold_WhenItSetsOne()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(200), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 3 },
            Thresholds = new ThresholdOptions { MaxDroppedPercent = 50 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.True(result.Summary.DroppedFraction > 0.5);
        Assert.False(ThresholdEvaluator.Evaluate(result.Status, result.Summary, plan.Thresholds!, null).Passed);
    }

    [Fact]
    public async Task RunAsync_WarmUp_WritesNothingToTheTarget_AndIsNotMeasured()
    {
        var plan = new RunPlan
        {
            Target = new TargetOptions { Kind = TargetKind.NoOp },
            Stop = new StopOptions { TotalDocuments = 300 },
        };

        var result = await new BenchmarkRunner(TimeProvider.System) { WarmUp = TimeSpan.FromMilliseconds(200) }.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(300, result.Summary.TotalOk);
        Assert.Equal(300, result.Summary.TotalIssued);
        Assert.Equal(300, result.Latency!.Count);
        Assert.True(result.Summary.AccountsBalance);
    }

    /// <summary>Health by second number, as a test scripts it.</summary>
    private sealed class ScriptedHealth(Func<int, ClientHealth> bySecond) : IClientHealthSource
    {
        private int _next;

        public bool Started { get; private set; }

        public void Start() => Started = true;

        public ClientHealth Sample(double processCpuPercent, TimeSpan clockLag) => bySecond(_next++);

        public void Dispose()
        {
        }
    }
}
