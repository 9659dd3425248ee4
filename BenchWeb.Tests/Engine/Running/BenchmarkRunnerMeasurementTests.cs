using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>Figures that must never overstate: requests due but not sent, documents given up, requests cut off at stop,
/// and the one clock a run is measured by.</summary>
public partial class BenchmarkRunnerTests
{
    [Fact]
    public async Task RunAsync_OpenLoop_CountsRequestsDueButNotSent_WhenAsManyAsTheConcurrencyAllowsAreOutstanding()
    {
        // 20 requests a second are offered; one may be outstanding and each takes 200 ms: at most 5 a second can be sent.
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(200), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 20, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 2 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        var s = result.Summary;
        Assert.Equal(20, s.OfferedRequestsPerSecond);
        Assert.InRange(s.TotalIssued + s.TotalDropped, 36, 42);
        Assert.InRange(s.TotalIssued, 8, 13);
        Assert.InRange(s.TotalDropped, 25, 34);
        Assert.Equal(s.TotalDropped, result.Seconds.Sum(second => second.Dropped));
        Assert.Equal(s.TotalIssued, result.Seconds.Sum(second => second.Issued));
        Assert.InRange(s.AchievedRequestsPerSecond!.Value, 3, 7);
        Assert.InRange(s.DroppedFraction, 0.6, 0.85);
        Assert.Equal(s.TotalIssued, s.TotalOk);
    }

    [Fact]
    public async Task RunAsync_OpenLoop_SendsEveryRequestDue_WhenTheTargetKeepsUp()
    {
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 8 },
            Stop = new StopOptions { TotalDocuments = 50 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(0, result.Summary.TotalDropped);
        Assert.Equal(50, result.Summary.TotalIssued);
        Assert.Equal(RunStatus.Completed, result.Status);
    }

    [Fact]
    public async Task RunAsync_EndsStopped_WhenMoreOfTheRequestsDueGoUnsentThanTheAutoStopRuleAllows()
    {
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(200), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 50, Concurrency = 1 },
            Stop = new StopOptions { DurationSeconds = 30, AutoStop = new AutoStopOptions { DroppedFractionAbove = 0.5, WindowSeconds = 1 } },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Stopped, result.Status);
        Assert.Contains("of the requests due were not sent over the last 1 s (limit 50.0 %)", result.StopReason, StringComparison.Ordinal);
        Assert.True(result.Summary.Elapsed < TimeSpan.FromSeconds(10), $"ran {result.Summary.Elapsed}");
    }

    [Fact]
    public async Task RunAsync_CountsGivenUpDocuments_AndStatesTheShortfall_WhenThrottleRetriesRunOut()
    {
        // Every other document is throttled for good: its retries run out and it never lands.
        var (runner, _) = RunnerWith(() => new ThrottleEveryOtherForeverTarget());
        var plan = new RunPlan
        {
            Load = new LoadOptions { Concurrency = 2, Throttling = new ThrottleOptions { MaxRetries = 2, SharedBackoff = false } },
            Stop = new StopOptions { TotalDocuments = 20 },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(10, result.Summary.TotalOk);
        Assert.Equal(10, result.Summary.TotalGivenUp);
        Assert.Equal(10, result.Seconds.Sum(s => s.GivenUp));
        Assert.Equal(30, result.Summary.TotalThrottled);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.DoesNotContain("reached 20 documents", result.StopReason, StringComparison.Ordinal);
        Assert.Equal("took all 20 documents: 10 landed, 10 documents given up after their throttle retries ran out (after 429s only, none landed; after a 5xx, one may have)", result.StopReason);
        Assert.Equal("10 documents given up after their throttle retries ran out (after 429s only, none landed; after a 5xx, one may have); 10 landed", result.FailureReason);
        var verdict = ThresholdEvaluator.Evaluate(result.Status, result.Summary, new ThresholdOptions(), null);
        Assert.False(verdict.Passed);
        Assert.Contains(verdict.Checks, c => c is { Name: "given up", Passed: false } && c.Message.Contains("10 documents given up", StringComparison.Ordinal));
    }

    [Fact]
    public async Task RunAsync_SaysHowManyLandedAndHowManyFailed_WhenACountStopTookAllItsDocuments()
    {
        // Every tenth write fails (a 500 error, not retried): the run took its 50 documents, and 45 landed.
        var (runner, _) = RunnerWith(() => new FailingTwoOfThreeTarget(failEvery: 10));
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { TotalDocuments = 50 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal((45L, 5L), (result.Summary.TotalOk, result.Summary.TotalErrors));
        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal("took all 50 documents: 45 landed, 5 failed requests (unanswered or answered 408/5xx: each may or may not have landed)", result.StopReason);
    }

    [Fact]
    public async Task RunAsync_SaysDocumentsGivenUpAfterA5xxMayHaveLanded_AndNeverThatTheyDidNotLand()
    {
        // Every tenth write is answered 503 (the service may have done it) and, with no retries, given up; every tenth
        // other one is refused with a 400.
        var (runner, _) = RunnerWith(() => new ServerBusyOrBadRequestTarget());
        var plan = new RunPlan
        {
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 0 } },
            Stop = new StopOptions { TotalDocuments = 100 },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal((80L, 10L, 10L), (result.Summary.TotalOk, result.Summary.TotalErrors, result.Summary.TotalGivenUp));
        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal("took all 100 documents: 80 landed, 10 failed requests, 10 documents given up after their throttle retries ran out (after 429s only, none landed; after a 5xx, one may have)", result.StopReason);
        Assert.Equal("10 failed requests, 10 documents given up after their throttle retries ran out (after 429s only, none landed; after a 5xx, one may have); 80 landed; the first error: 400 Bad Request", result.FailureReason);
        Assert.DoesNotContain("did not land", result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_SaysARequestCutOffAtTheStopMayHaveLanded_WhenACountStopTookAllItsDocuments()
    {
        // The tenth write never answers: the duration stops the run and the grace period cuts it off.
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new HangOnTenthTarget(), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { TotalDocuments = 10, DurationSeconds = 2 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal((9L, 1L), (result.Summary.TotalOk, result.Summary.TotalAbandoned));
        Assert.Equal("took all 10 documents: 9 landed, 1 request abandoned at the stop (each may or may not have landed)", result.StopReason);
    }

    [Theory]
    [InlineData(0.55, "ran for 0.55 s")]
    [InlineData(2.5, "ran for 2.5 s")]
    [InlineData(2, "ran for 2 s")]
    public async Task RunAsync_SaysTheDurationAsThePlanGaveIt_NeverRounded(double seconds, string reason)
    {
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { DurationSeconds = seconds } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(reason, result.StopReason);
    }

    [Fact]
    public async Task RunAsync_CountsRequestsCutOffByTheStopAsAbandoned_ForTheSimulator()
    {
        // Every simulated write takes about 10 s: those in flight when the grace period ends are cut off.
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { MedianLatencyMs = 10_000 } },
            Load = new LoadOptions { Concurrency = 4 },
            Stop = new StopOptions { DurationSeconds = 1 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(4, result.AbandonedRequests);
        Assert.Equal(0, result.Summary.TotalErrors);
        Assert.Equal(0, result.Summary.TotalOk);
    }

    [Fact]
    public async Task RunAsync_StartsTheDurationStopWithTheRunClock_AfterTheObserverRecordedTheStart()
    {
        // The observer takes 700 ms to record the start (a database write). A duration stop started before it would end a
        // "2 s" run after 1.3 s of the run's own clock.
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(5), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { DurationSeconds = 2 } };

        var result = await RunSteppedAsync(runner, time, plan, new SlowStartObserver(TimeSpan.FromMilliseconds(700), time));

        Assert.InRange(result.Summary.Elapsed.TotalSeconds, 2.0, 2.3);
        Assert.Equal(2, result.Seconds.Count(s => s.IsFull));
    }

    [Fact]
    public async Task RunAsync_TellsTheTargetWhenTheRunClockStarts()
    {
        var time = BenchWeb.Tests.Support.SteppedClock.Create();
        var target = new ClockWatchingTarget(time);
        var (runner, _) = RunnerWith(() => target, time);
        var before = time.GetTimestamp();

        await RunSteppedAsync(runner, time, new RunPlan { Stop = new StopOptions { TotalDocuments = 5 } });

        Assert.True(target.StartedAt >= before, "the run clock's start is given to the target");
        Assert.True(target.FirstWriteAt >= target.StartedAt, "before the first write");
    }

    [Fact]
    public async Task RunAsync_PadsDocumentsToTheTargetSize_CountingThePropertyTheTargetAdds()
    {
        var target = new PartitionKeyAppendingTarget("tenant");
        var (runner, _) = RunnerWith(() => target);
        var plan = new RunPlan
        {
            Workload = new WorkloadOptions { Shape = DocumentShape.BulkRecord, TargetSizeBytes = 661 },
            Stop = new StopOptions { TotalDocuments = 20 },
        };

        await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(20, target.SentBytes.Count);
        // Exactly: numbers of varying width included.
        Assert.All(target.SentBytes, bytes => Assert.Equal(661, bytes));
    }

    private sealed class ThrottleEveryOtherForeverTarget : TestTarget
    {
        private readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> _doomed = new();
        private int _documents;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var doomed = _doomed.GetOrAdd(documents[0].Id, _ => Interlocked.Increment(ref _documents) % 2 == 0);
            return Task.FromResult(doomed ? OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(1)) : OperationOutcome.Ok(201, 1, 5, 100));
        }
    }

    /// <summary>Answers every tenth write 503 "server busy" (a throttle after which the write may have landed) and every
    /// tenth of the others 400.</summary>
    private sealed class ServerBusyOrBadRequestTarget : TestTarget
    {
        private int _writes;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var n = Interlocked.Increment(ref _writes);
            return Task.FromResult(
                n % 10 == 0 ? OperationOutcome.Throttled(503, 0, null)
                : n % 10 == 5 ? OperationOutcome.Failed(400, 0, "400 Bad Request")
                : OperationOutcome.Ok(201, 1, 1, 100));
        }
    }

    /// <summary>Answers every write at once but the tenth, which waits until the run cuts it off.</summary>
    private sealed class HangOnTenthTarget : TestTarget
    {
        private int _writes;

        public override async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            if (Interlocked.Increment(ref _writes) == 10)
            {
                await Task.Delay(Timeout.InfiniteTimeSpan, cancellationToken);
            }

            return OperationOutcome.Ok(201, 1, 1, 100);
        }
    }

    private sealed class SlowStartObserver(TimeSpan delay, TimeProvider time) : IRunObserver
    {
        public async ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) => await Task.Delay(delay, time, cancellationToken);

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken) => ValueTask.CompletedTask;
    }

    private sealed class ClockWatchingTarget(TimeProvider time) : TestTarget, IInsertTarget
    {
        public long StartedAt { get; private set; } = long.MinValue;

        public long FirstWriteAt { get; private set; } = long.MinValue;

        void IInsertTarget.RunClockStarted(long startTimestamp) => StartedAt = startTimestamp;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            if (FirstWriteAt == long.MinValue)
            {
                FirstWriteAt = time.GetTimestamp();
            }

            return Task.FromResult(OperationOutcome.Ok(201, 1, 1, 1));
        }
    }

    /// <summary>Sends each document with a partition-key property appended, as Cosmos DB's target does for a key path the
    /// document has no field for, and keeps the size of every body it sent.</summary>
    private sealed class PartitionKeyAppendingTarget(string partitionKeyProperty) : TestTarget, IInsertTarget
    {
        public System.Collections.Concurrent.ConcurrentQueue<int> SentBytes { get; } = new();

        int IInsertTarget.MeasureRequestBytes(Document document) => DocumentJson.Measure(document, partitionKeyProperty);

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var body = new System.Buffers.ArrayBufferWriter<byte>();
            DocumentJson.Write(body, documents[0], partitionKeyProperty);
            SentBytes.Enqueue(body.WrittenCount);
            return Task.FromResult(OperationOutcome.Ok(201, 1, 1, body.WrittenCount));
        }
    }
}
