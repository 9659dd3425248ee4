using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>Every request due or taken ends in exactly one bucket: offered = ok + given up + errors + abandoned + dropped +
/// not started, for every load model and kind of target, over the run and over each of its stages.</summary>
public partial class BenchmarkRunnerTests
{
    public static TheoryData<LoadModel, string> ModelsAndTargets()
    {
        var cases = new TheoryData<LoadModel, string>();
        foreach (var model in new[] { LoadModel.ClosedLoop, LoadModel.OpenLoop, LoadModel.Waves, LoadModel.Unbounded })
        {
            cases.Add(model, nameof(TargetKind.Simulated));
            cases.Add(model, nameof(TargetKind.NoOp));
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(ModelsAndTargets))]
    public async Task RunAsync_AccountsForEveryRequest_ForEachLoadModelAndTarget(LoadModel model, string kind)
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var simulated = kind == nameof(TargetKind.Simulated);

        // The simulator at 400 RU/s (80 inserts/s) against 32 senders throttles; one retry each, so some may be given up, and
        // some wait out a retry-after when the duration stops issuing (abandoned).
        var plan = new RunPlan
        {
            Target = simulated
                ? new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400, Indexing = IndexingMode.None } }
                : new TargetOptions { Kind = TargetKind.NoOp },
            Load = new LoadOptions
            {
                Model = model,
                Concurrency = 32,
                RatePerSecond = model == LoadModel.OpenLoop ? 300 : null,
                Throttling = new ThrottleOptions { MaxRetries = 1, SharedBackoff = false },
            },
            Stop = model == LoadModel.Unbounded ? new StopOptions { TotalDocuments = 400 } : new StopOptions { DurationSeconds = 3 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var s = result.Summary;
        AssertBalanced(s, result.Seconds);
        Assert.True(s.TotalOffered > 0);
        if (simulated)
        {
            Assert.True(s.TotalThrottled > 0, "the simulator should throttle 32 senders on 400 RU/s");
        }

        if (simulated && model == LoadModel.Unbounded)
        {
            Assert.True(s.TotalGivenUpRequests > 0, "400 writes at once on 80 a second, with one retry each: some run out of retries");
        }

        if (model == LoadModel.OpenLoop)
        {
            // 300 a second for 3 s were due: the one due at the stop's very instant is not the run's.
            Assert.Equal(900, s.TotalOffered);
        }

        if (model == LoadModel.Unbounded)
        {
            Assert.Equal(400, s.TotalOffered);
        }
    }

    [Theory]
    [InlineData(LoadModel.ClosedLoop)]
    [InlineData(LoadModel.OpenLoop)]
    [InlineData(LoadModel.Waves)]
    public async Task RunAsync_AccountsForEveryRequestInEachStage_WhenTheSimulatorThrottles(LoadModel model)
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var open = model == LoadModel.OpenLoop;
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400, Indexing = IndexingMode.None } },
            Load = new LoadOptions
            {
                Model = model,
                Concurrency = 32,
                Throttling = new ThrottleOptions { MaxRetries = 1, SharedBackoff = false },
                Stages =
                [
                    new LoadStage { DurationSeconds = 2, Concurrency = open ? null : 2, RatePerSecond = open ? 20 : null },
                    new LoadStage { DurationSeconds = 2, Concurrency = open ? null : 32, RatePerSecond = open ? 400 : null },
                    new LoadStage { DurationSeconds = 1, Concurrency = open ? null : 4, RatePerSecond = open ? 40 : null },
                ],
            },
            Stop = new StopOptions(),
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var s = result.Summary;
        AssertBalanced(s, result.Seconds);
        Assert.Equal(3, s.Stages.Count);
        Assert.True(s.TotalThrottled > 0);
        Assert.All(s.Stages, stage => Assert.True(stage.AccountsBalance,
            $"stage {stage.Index}: issued {stage.Issued} ≠ ok {stage.OkRequests} + given up {stage.GivenUpRequests} + errors {stage.Errors} + abandoned {stage.Abandoned} + in flight at its end {stage.InFlightAtEnd} − at its start {stage.InFlightAtStart}"));
        Assert.Equal(s.TotalIssued, s.Stages.Sum(x => x.Issued));
        Assert.Equal(s.TotalDropped, s.Stages.Sum(x => x.Dropped));
        Assert.Equal(s.TotalNotStarted, s.Stages.Sum(x => x.NotStarted));
        Assert.Equal(s.TotalAbandoned, s.Stages.Sum(x => x.Abandoned));
        Assert.Equal(s.TotalGivenUpRequests, s.Stages.Sum(x => x.GivenUpRequests));
        Assert.Equal(0, s.Stages[0].InFlightAtStart);
        Assert.Equal(0, s.Stages[^1].InFlightAtEnd);
    }

    // The two tests below hold the sender's own thread, as a real pause does, so they run on the system clock: on a fake clock
    // the sender resumes on the thread that moves time (a fake timer's callback), and holding it would stop time itself.
    // They assert counts only, which a busy machine does not change.

    [Fact]
    public async Task RunAsync_OpenLoop_SendsLateAndDropsNothing_AfterAClientPause()
    {
        // The sender's own thread is held for 300 ms at 1 s (a collection, a preemption): 30 requests fall due meanwhile.
        var result = await RunPausedOpenLoopAsync(TimeSpan.FromSeconds(1), TimeSpan.FromMilliseconds(300), durationSeconds: 3);
        var s = result.Summary;

        Assert.InRange(s.TotalIssued + s.TotalNotStarted, 300, 301);
        Assert.True(s.TotalSentLate >= 25, $"{s.TotalSentLate} sent late");

        // Their latency counts from when they were due, the pause included.
        Assert.True(s.Latency.MaxMs >= 290, $"the longest latency is {s.Latency.MaxMs} ms");

        // The seconds whose sender fell behind (10 % of their requests or more sent late) are the client's, and only those
        // for that reason: the pause's second among them.
        foreach (var second in result.Seconds.Where(x => x.Duration >= SecondSnapshot.ShortestJudged))
        {
            var behind = second.Issued > 0 && second.SentLate * 10 >= second.Issued;
            Assert.True(behind == second.Health!.Limits.HasFlag(ClientLimitKinds.SenderBehind), $"second {second.Index}: {second.SentLate} of {second.Issued} sent late, limits {second.Health.Limits}");
        }

        Assert.Contains(result.Seconds, x => x.Health!.Limits.HasFlag(ClientLimitKinds.SenderBehind));
        Assert.True(s.ClientBound);
    }

    [Fact]
    public async Task RunAsync_OpenLoop_CountsTheRequestsDueButNotSent_WhenAPauseRunsPastTheStop()
    {
        // The sender is held from 1.8 s to 2.3 s of a 2 s run: the requests due between its held one and the stop were
        // neither sent nor dropped.
        var result = await RunPausedOpenLoopAsync(TimeSpan.FromSeconds(1.8), TimeSpan.FromMilliseconds(500), durationSeconds: 2);

        var s = result.Summary;
        Assert.True(s.TotalNotStarted > 0, "the requests due during the pause before the stop were not started");
        Assert.InRange(s.TotalIssued + s.TotalNotStarted, 200, 201);
        Assert.Equal(s.TotalNotStarted, result.Seconds[^1].NotStarted);
    }

    /// <summary>An open loop of 100 requests a second whose sender is held once; every request is accounted for and, as
    /// 256 may be outstanding, none is dropped.</summary>
    private static async Task<RunResult> RunPausedOpenLoopAsync(TimeSpan pauseAt, TimeSpan pause, int durationSeconds)
    {
        var target = new PausingTarget(pauseAt, pause);
        var (runner, _) = RunnerWith(() => target);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 100, Concurrency = 256 },
            Stop = new StopOptions { DurationSeconds = durationSeconds },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.True(target.Paused);
        AssertBalanced(result.Summary, result.Seconds);
        Assert.Equal(0, result.Summary.TotalDropped);
        return result;
    }

    /// <summary>The identity, over the run and summed over its seconds, with every figure in the message when it fails.</summary>
    internal static void AssertBalanced(RunSummary s, IReadOnlyList<SecondSnapshot> seconds)
    {
        Assert.True(s.AccountsBalance,
            $"offered {s.TotalOffered} ≠ ok {s.TotalOkRequests} + given up {s.TotalGivenUpRequests} + errors {s.TotalErrors} + abandoned {s.TotalAbandoned} + dropped {s.TotalDropped} + not started {s.TotalNotStarted}");
        Assert.Equal(s.TotalIssued + s.TotalDropped + s.TotalNotStarted, s.TotalOffered);
        Assert.Equal(s.TotalOkRequests, seconds.Sum(x => x.OkRequests));
        Assert.Equal(s.TotalGivenUpRequests, seconds.Sum(x => x.GivenUpRequests));
        Assert.Equal(s.TotalErrors, seconds.Sum(x => x.Errors));
        Assert.Equal(s.TotalAbandoned, seconds.Sum(x => x.Abandoned));
        Assert.Equal(s.TotalDropped, seconds.Sum(x => x.Dropped));
        Assert.Equal(s.TotalNotStarted, seconds.Sum(x => x.NotStarted));
        Assert.Equal(s.TotalIssued, seconds.Sum(x => x.Issued));
        Assert.Equal(0, seconds[^1].InFlight);
    }

    /// <summary>Answers each write after 5 ms, but the first write at or after <c>pauseAt</c> of the run's clock holds its
    /// caller's thread for <c>pause</c> before it returns, as a client pause would.</summary>
    private sealed class PausingTarget(TimeSpan pauseAt, TimeSpan pause) : TestTarget, IInsertTarget
    {
        private long _start;
        private int _paused;

        public bool Paused => Volatile.Read(ref _paused) == 1;

        void IInsertTarget.RunClockStarted(long startTimestamp) => _start = startTimestamp;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            if (TimeProvider.System.GetElapsedTime(_start) >= pauseAt && Interlocked.Exchange(ref _paused, 1) == 0)
            {
                Thread.Sleep(pause);
            }

            return AnswerAsync(documents.Count);
        }

        private static async Task<OperationOutcome> AnswerAsync(int documents)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(5));
            return OperationOutcome.Ok(201, documents, 1, 1);
        }
    }
}
