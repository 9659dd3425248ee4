using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>Stages: the load follows each stage's level on the run's clock, and the stages' figures partition the run's.</summary>
public partial class BenchmarkRunnerTests
{
    [Fact]
    public async Task RunAsync_StageFiguresAddUpToTheRunsTotals_AndCoverItsSeconds_WhenTheSimulatorThrottles()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400 } },
            Load = new LoadOptions
            {
                Stages =
                [
                    new LoadStage { DurationSeconds = 2, Concurrency = 2 },
                    new LoadStage { DurationSeconds = 3, Concurrency = 30, Ramp = StageRamp.Linear },
                    new LoadStage { DurationSeconds = 2, Concurrency = 5 },
                ],
            },
            Stop = new StopOptions(),
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var s = result.Summary;
        Assert.Equal(RunStatus.Completed, result.Status);
        // The requests waiting out a throttle at the stop are said, not hidden behind "ran for 7 s".
        Assert.Equal(s.TotalAbandoned == 0 && s.TotalNotStarted == 0 ? "ran for 7 s"
            : "ran for 7 s; " + string.Join(", ", new[]
            {
                $"{s.TotalOk:N0} landed",
                s.TotalAbandoned == 0 ? null : $"{s.TotalAbandoned:N0} request{(s.TotalAbandoned == 1 ? "" : "s")} abandoned at the stop (each may or may not have landed)",
                s.TotalNotStarted == 0 ? null : $"{s.TotalNotStarted:N0} request{(s.TotalNotStarted == 1 ? "" : "s")} not sent",
            }.OfType<string>()), result.StopReason);
        Assert.Equal(3, s.Stages.Count);
        Assert.True(s.TotalThrottled > 0, "the simulator should throttle 30 workers on 400 RU/s");
        Assert.Equal(s.TotalOk, s.Stages.Sum(x => x.Ok));
        Assert.Equal(s.TotalOkRequests, s.Stages.Sum(x => x.OkRequests));
        Assert.Equal(s.TotalThrottled, s.Stages.Sum(x => x.Throttled));
        Assert.Equal(s.TotalIssued, s.Stages.Sum(x => x.Issued));
        Assert.Equal(s.TotalRequestUnits!.Value, s.Stages.Sum(x => x.TotalRequestUnits!.Value), 6);
        Assert.Equal(0, s.Stages[0].FirstSecond);
        Assert.Equal([(0, 1), (2, 4)], s.Stages.Take(2).Select(x => (x.FirstSecond, x.LastSecond)));
        Assert.Equal(5, s.Stages[2].FirstSecond);
        Assert.Equal(result.Seconds.Count - 1, s.Stages[2].LastSecond);
        Assert.All(s.Stages, x => Assert.NotNull(x.LatencyP99Ms));
    }

    [Fact]
    public async Task RunAsync_ClosedLoopStages_FollowTheLinearRampAndReachAStepsLevelWithinASecond()
    {
        // Each write takes 100 ms: a worker writes 10 a second, so throughput is 10 × the workers sending.
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(100), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions
            {
                Stages =
                [
                    new LoadStage { DurationSeconds = 3, Concurrency = 2 },
                    new LoadStage { DurationSeconds = 10, Concurrency = 20, Ramp = StageRamp.Linear },
                    new LoadStage { DurationSeconds = 3, Concurrency = 5 },
                ],
            },
            Stop = new StopOptions { DurationSeconds = 16 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var seconds = result.Seconds;
        Assert.Equal(RunStatus.Completed, result.Status);
        // In flight is sampled as a second closes: a worker whose response landed on that very instant and that has not sent
        // its next request yet is not counted (a write taking 100 ms here, responses land on boundaries), so the level shows
        // as a ceiling, and the counts show that every worker sent.
        Assert.All(seconds.Take(3), x => Assert.InRange(x.InFlight, 0, 2));
        Assert.InRange(seconds[1].Ok, 18, 22);

        // The ramp: the level at second i's end is 2 + 1.8 × (i + 1 − 3); in flight and throughput rise with it.
        for (var i = 3; i < 12; i++)
        {
            var planned = 2 + (1.8 * (i + 1 - 3));
            Assert.InRange(seconds[i].InFlight, planned - 2, planned + 1);
        }

        Assert.True(seconds[5].Ok < seconds[8].Ok && seconds[8].Ok < seconds[12].Ok, string.Join(", ", seconds.Select(x => x.Ok)));

        // The step down to 5 at 13 s: reached within the second. The next second is 5 workers' 10 writes each, over the span
        // its counts covered: from second 13's close to its own, each as late as its clock lag says (on a busy machine the
        // clock's thread can wake a step or more after the boundary, and the stepped clock gives a step's work at most 50 ms
        // of real time, SteppedClock). A write takes at least 100 ms, so a worker lands at most one more than the span holds
        // tenths of a second (a response landing on each end as the clock closes, counted in this second) and at least one
        // fewer (both counted in the seconds either side); fake time running ahead of a worker takes up to one more.
        Assert.InRange(seconds[13].InFlight, 0, 5);
        Assert.InRange(seconds[14].InFlight, 0, 5);
        var openedLate = seconds[13].Health!.ClockLagMs;
        var closedLate = seconds[14].Health!.ClockLagMs;
        var most = 5 * (Math.Floor(10 * (1 + (closedLate / 1000))) + 1);
        var least = (5 * (Math.Floor(10 * (1 - (openedLate / 1000))) - 1)) - 5;
        Assert.True(seconds[14].Ok >= least && seconds[14].Ok <= most, $"{seconds[14].Ok} writes in second 14 (opened {openedLate} ms late, closed {closedLate} ms late), not within {least}–{most}");
        Assert.InRange(result.Summary.Stages[0].Ok, 56, 62);
        // The last stage also counts the requests the ramp's 20 workers had outstanding at 13 s, or started before the gate's
        // next look (a second belongs to the stage its responses arrived in), and the 5 returning after the stop at 16 s.
        Assert.InRange(result.Summary.Stages[2].Ok, 150, 200);
    }

    [Fact]
    public async Task RunAsync_ClosedLoopStages_EndAtTheDocumentCount_WhileWorkersWaitAboveTheLevel()
    {
        // 2 of 10 workers send 20 documents a second: 50 documents are in by 2.5 s, long before the stages' 60 s.
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(100), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Stages = [new LoadStage { DurationSeconds = 30, Concurrency = 2 }, new LoadStage { DurationSeconds = 30, Concurrency = 10 }] },
            Stop = new StopOptions { TotalDocuments = 50 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal("reached 50 documents", result.StopReason);
        Assert.InRange(result.Summary.Elapsed.TotalSeconds, 2.3, 3);
        Assert.Single(result.Summary.Stages);
        Assert.Equal(50, result.Summary.Stages[0].Ok);
    }

    [Fact]
    public async Task RunAsync_OpenLoopStages_IssueThePlannedRequestsPerStage()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions
            {
                Model = LoadModel.OpenLoop,
                Concurrency = 50,
                Stages =
                [
                    new LoadStage { DurationSeconds = 3, RatePerSecond = 10 },
                    new LoadStage { DurationSeconds = 4, RatePerSecond = 50, Ramp = StageRamp.Linear },
                    new LoadStage { DurationSeconds = 3, RatePerSecond = 20 },
                ],
            },
            Stop = new StopOptions(),
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var stages = result.Summary.Stages;
        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(0, result.Summary.TotalDropped);
        Assert.Equal(21, result.Summary.OfferedRequestsPerSecond!.Value, 6);

        // Planned: 10 × 3, (10 + 50) / 2 × 4, 20 × 3; each within a second's worth of its rate.
        Assert.InRange(stages[0].Issued, 30 - 10, 30 + 10);
        Assert.InRange(stages[1].Issued, 120 - 50, 120 + 50);
        Assert.InRange(stages[2].Issued, 60 - 20, 60 + 20);
        Assert.InRange(result.Summary.TotalIssued, 209, 211);
        Assert.InRange(result.Seconds[5].Issued, 30, 40);
    }
}
