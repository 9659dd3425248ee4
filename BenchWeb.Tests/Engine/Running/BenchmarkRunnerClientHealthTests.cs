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

    [Theory]
    [InlineData(500, 15, false)]
    [InlineData(5_000, 15, false)]
    [InlineData(500, 180, true)]
    [InlineData(20, 1, true)]
    public async Task RunAsync_ABusyMachine_IsNoLimitOfASecondThatWaitedOnTheService(int serviceMs, double lagMs, bool limited)
    {
        // Every sample reads a full machine and a scheduling lag over its bound. Requests the service held for 500 ms, or did
        // not answer all second (5 s: a stall), waited on the service, not on a client delayed by 15 ms: the service set the
        // pace. Held for less than ten times the lag (500 ms beside 180 ms) or under 100 ms (20 ms), the client's delay counts.
        var time = SteppedClock.Create();
        var busy = new ClientHealth { HostCpuPercent = 100, SchedulingLagP99Ms = lagMs, Limits = ClientLimitKinds.HostCpu | ClientLimitKinds.SchedulingLag };
        var script = new ScriptedHealth(_ => busy);
        var runner = new BenchmarkRunner(time, (options, context) => new SlowTarget(TimeSpan.FromMilliseconds(serviceMs), time)) { ClientHealth = _ => script };
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 4 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(limited ? result.Seconds.Count(s => s.Duration >= SecondSnapshot.ShortestJudged) : 0, result.Summary.ClientLimitedSeconds);
        Assert.True(result.Summary.ClientLimitedSeconds > 0 || !limited);
        Assert.All(result.Seconds, s => Assert.Equal(100, s.Health!.HostCpuPercent));
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
    public async Task RunAsync_OpenLoopThatLeftItsScheduleUnsent_SaysTheClientWasNotTheLimitThere_WhenItWasTheLimitElsewhere()
    {
        // The client was starved in second 1; the service stalled in second 2, where the requests went unsent.
        var result = await RunStalledOpenLoopAsync(ScriptedClientHealth.StarvedIn(1, 1));

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal("second 1", Assert.Single(result.Summary.ClientLimitedSpans).Seconds);
        Assert.EndsWith("; the client was not the limit in the seconds with requests due but not sent (second 2)", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain("second 1", result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_OpenLoopThatLeftItsScheduleUnsent_NamesOnlyTheClientLimitedSecondsWhereRequestsWentUnsent()
    {
        var result = await RunStalledOpenLoopAsync(second => second is 0 or 2 ? ScriptedClientHealth.Starved : ScriptedClientHealth.Healthy);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal(["second 0", "second 2"], result.Summary.ClientLimitedSpans.Select(s => s.Seconds));
        Assert.Contains("; the client was the limit in second 2: the client was starved: ", result.FailureReason, StringComparison.Ordinal);
        Assert.DoesNotContain("second 0", result.FailureReason, StringComparison.Ordinal);
    }

    /// <summary>An open loop of 50 requests a second, two outstanding at most, for 4 s, against a service that holds the
    /// writes it receives from 2.01 s to 2.91 s: the requests due meanwhile, all in second 2, cannot be sent (over 10 %).</summary>
    private static async Task<RunResult> RunStalledOpenLoopAsync(Func<int, ClientHealth> health)
    {
        var time = SteppedClock.Create();
        var runner = new BenchmarkRunner(time, (options, context) => new StallingTarget(TimeSpan.FromSeconds(2.01), TimeSpan.FromSeconds(2.91), time))
        {
            ClientLimits = ScriptedClientHealth.Limits,
            ClientHealth = limits => new ScriptedClientHealth(limits, health),
        };
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 2 },
            Stop = new StopOptions { DurationSeconds = 4 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal([2], result.Seconds.Where(s => s.Dropped + s.NotStarted > 0).Select(s => s.Index));
        return result;
    }

    /// <summary>Answers each write at once, but holds those that arrive between <c>from</c> and <c>until</c> of the run's
    /// clock until <c>until</c>: a service that stalled for a while.</summary>
    private sealed class StallingTarget(TimeSpan from, TimeSpan until, TimeProvider time) : TestTarget, IInsertTarget
    {
        private long _start;

        void IInsertTarget.RunClockStarted(long startTimestamp) => _start = startTimestamp;

        public override async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var elapsed = time.GetElapsedTime(_start);
            if (elapsed >= from && elapsed < until)
            {
                await Task.Delay(until - elapsed, time, cancellationToken);
            }

            return OperationOutcome.Ok(201, documents.Count, 1, 1);
        }
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
