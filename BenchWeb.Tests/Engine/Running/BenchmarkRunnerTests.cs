using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Running;

[UnitTest]
public partial class BenchmarkRunnerTests
{
    private static readonly TargetContext NoSecrets = new(TimeProvider.System, _ => null);

    private static (BenchmarkRunner Runner, Func<IInsertTarget> Target) RunnerWith(Func<IInsertTarget>? make = null, TimeProvider? time = null)
    {
        IInsertTarget? created = null;
        var runner = new BenchmarkRunner(time ?? TimeProvider.System, (options, context) => created = make?.Invoke() ?? TargetRegistry.Create(options, context));
        return (runner, () => created!);
    }

    /// <summary>Runs the plan on a stepped fake clock (<see cref="SteppedClock"/>), for a test whose figures depend on time:
    /// seconds, durations, waits and latencies are then the plan's, not a busy machine's.</summary>
    private static Task<RunResult> RunSteppedAsync(BenchmarkRunner runner, FakeTimeProvider time, RunPlan plan, IRunObserver? observer = null, CancellationToken cancellationToken = default) =>
        SteppedClock.RunAsync(time, () => runner.RunAsync(plan, NoSecrets, observer, cancellationToken), TimeSpan.FromMinutes(2));

    [Fact]
    public async Task RunAsync_SourceFactoryGiven_OpensTheWorkloadThroughIt()
    {
        var opened = new List<WorkloadOptions>();
        var runner = new BenchmarkRunner(TimeProvider.System, sourceFactory: (workload, time) =>
        {
            opened.Add(workload);
            return DocumentSourceFactory.Create(workload, time);
        });
        var plan = new RunPlan { Name = "hooked", Workload = new WorkloadOptions { Shape = DocumentShape.BulkRecord }, Stop = new StopOptions { TotalDocuments = 50 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal(50, result.Seconds.Sum(s => s.Ok));
        Assert.Equal([plan.Workload], opened);
    }

    [Fact]
    public async Task RunAsync_SumOfPerSecondOk_EqualsDocumentsInTheSimulator()
    {
        var (runner, target) = RunnerWith();
        var plan = new RunPlan
        {
            Name = "sim",
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 2_000, Indexing = IndexingMode.None } },
            Load = new LoadOptions { Concurrency = 16 },
            Stop = new StopOptions { TotalDocuments = 600 },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal("reached 600 documents", result.StopReason);
        Assert.Equal(600, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(600, await target().CountAsync(CancellationToken.None));
        Assert.Equal(600, result.Summary.Latency.Count);
        Assert.True(result.TargetIsModel);
    }

    [Fact]
    public async Task RunAsync_GoodputNeverExceedsProvisionedRu_AndThrottlesOnceOverBudget()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 1_000, Indexing = IndexingMode.None } },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { DurationSeconds = 3 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        // 1,000 RU/s ÷ 5 RU per ~150 B insert = 200 inserts/s at most. The service's budget windows are not
        // aligned with the run's seconds, so the bound holds over the run (plus one window), not per second.
        var windows = Math.Ceiling(result.Summary.Elapsed.TotalSeconds) + 1;
        Assert.True(result.Summary.TotalOk <= 200 * windows, $"{result.Summary.TotalOk} ok in {result.Summary.Elapsed.TotalSeconds:F2} s");
        Assert.True(result.Summary.TotalOk >= 200 * (windows - 3), $"{result.Summary.TotalOk} ok: the budget should be used");
        Assert.True(result.Summary.TotalThrottled > 0, "32 workers against 200 inserts/s must be throttled");
        Assert.InRange(result.Summary.RequestUnitsPerInsert!.Value, 5, 5);
    }

    [Fact]
    public async Task RunAsync_CountsEveryThrottle_IncludingRetriedOnes()
    {
        var target = new ThrottleOnceTarget();
        var (runner, _) = RunnerWith(() => target);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Concurrency = 4, Throttling = new ThrottleOptions { SharedBackoff = false } },
            Stop = new StopOptions { TotalDocuments = 50 },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(50, result.Summary.TotalOk);
        Assert.Equal(50, result.Summary.TotalThrottled);
        Assert.Equal(0.5, result.Summary.ThrottledFraction, 9);
    }

    [Fact]
    public async Task RunAsync_StopsWithin2Seconds_WhenCancelled_AndKeepsWhatItMeasured()
    {
        var time = SteppedClock.Create();
        var (runner, target) = RunnerWith(time: time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 8 }, Stop = new StopOptions { DurationSeconds = 120 } };
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(2.5), time);

        var result = await RunSteppedAsync(runner, time, plan, cancellationToken: cancel.Token);
        var returnedAfterCancel = time.GetUtcNow() - SteppedClock.Start - TimeSpan.FromSeconds(2.5);

        Assert.Equal(RunStatus.Cancelled, result.Status);
        Assert.InRange(result.Summary.Elapsed.TotalSeconds, 2.4, 4.5);
        Assert.True(result.Seconds.Count >= 2);
        Assert.True(result.Summary.TotalOk > 0);
        Assert.Equal(await target().CountAsync(CancellationToken.None), result.Seconds.Sum(s => s.Ok));
        Assert.True(returnedAfterCancel < TimeSpan.FromSeconds(2), $"returned {returnedAfterCancel.TotalSeconds:F2} s after the cancellation");
    }

    [Fact]
    public async Task RunAsync_OpenLoop_DropsRequestsItCannotSendOnTime_RatherThanSendingThemLate()
    {
        // The service takes 200 ms and only one request may be outstanding, but 10 per second are scheduled. Sending the
        // backlog late would hide it in ever longer waits; like k6, the loop drops what is due while the cap is reached and
        // counts it, so the requests sent wait for nothing but the service.
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(200), time), time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10, Concurrency = 1 },
            Stop = new StopOptions { TotalDocuments = 10 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        // The last response may land at the very instant the run's last full second closes: it is counted all the same.
        Assert.Equal(10, result.Summary.TotalOk);
        // Ten requests of at least 200 ms one at a time take at least 2 s, in which at least 20 were due.
        Assert.InRange(result.Summary.TotalDropped, 5, long.MaxValue);
        // Every request due was either sent or counted as not sent, however slow this machine is today.
        var due = result.Summary.Elapsed.TotalSeconds * plan.Load.RatePerSecond!.Value;
        Assert.InRange(result.Summary.TotalIssued + result.Summary.TotalDropped, due - 2, due + 2);
        Assert.InRange(result.Summary.Latency.P50Ms!.Value, 190, 600);
    }

    [Fact]
    public async Task RunAsync_EndsStopped_NamingTheRule_WhenAnAutoStopRuleFires()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var plan = new RunPlan
        {
            Target = new TargetOptions { Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400 } },
            Load = new LoadOptions { Concurrency = 64, Throttling = new ThrottleOptions { SharedBackoff = false } },
            Stop = new StopOptions { DurationSeconds = 30, AutoStop = new AutoStopOptions { ThrottledFractionAbove = 0.05, WindowSeconds = 1 } },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Stopped, result.Status);
        Assert.StartsWith("auto-stop:", result.StopReason, StringComparison.Ordinal);
        Assert.Contains("throttled over the last 1 s (limit 5.0 %)", result.StopReason, StringComparison.Ordinal);
        Assert.Null(result.FailureReason);
        Assert.True(result.Summary.Elapsed < TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task RunAsync_Fails_WhenEveryWriteFails_AndKeepsTheSeconds()
    {
        var (runner, _) = RunnerWith(() => new FailingTarget());
        var plan = new RunPlan { Stop = new StopOptions { TotalDocuments = 20 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("403", result.FailureReason, StringComparison.Ordinal);
        Assert.Equal(20, result.Seconds.Sum(s => s.Errors));
        Assert.Equal(20, result.Summary.ErrorsByStatus[403]);
    }

    [Fact]
    public async Task RunAsync_Fails_WithTheMissingSecretsName_WhenTheTargetCannotOpen()
    {
        var (runner, _) = RunnerWith();
        var plan = new RunPlan { Target = new TargetOptions { Kind = TargetKind.TableStorage }, Stop = new StopOptions { TotalDocuments = 1 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Contains("TABLES_CONNECTION_STRING", result.FailureReason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_ReportsEverySecondToTheObserver_InOrder()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(time: time);
        var observer = new RecordingObserver();
        var plan = new RunPlan { Stop = new StopOptions { DurationSeconds = 2.5 } };

        var result = await RunSteppedAsync(runner, time, plan, observer);

        Assert.NotNull(observer.Start);
        Assert.Equal(result.Seconds.Select(s => s.Index), observer.Seconds.Select(s => s.Index));
        Assert.Equal(Enumerable.Range(0, observer.Seconds.Count), observer.Seconds.Select(s => s.Index));
        Assert.True(observer.Seconds.Count >= 3);
        Assert.All(observer.Seconds.SkipLast(1), s => Assert.Equal(TimeSpan.FromSeconds(1), s.Duration));
        Assert.True(observer.Seconds[^1].Duration < TimeSpan.FromSeconds(1));
    }

    [Fact]
    public async Task RunAsync_WritesBatchesSharingAPartitionKey_WhenBatchSizeIsAbove1()
    {
        var target = new RecordingTarget();
        var (runner, _) = RunnerWith(() => target);
        var plan = new RunPlan
        {
            Workload = new WorkloadOptions { Shape = DocumentShape.Flight },
            Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 10, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 5_000 },
        };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(5_000, result.Summary.TotalOk);
        Assert.All(target.Batches, b => Assert.Single(b.Select(d => d.PartitionKey).Distinct()));
        Assert.All(target.Batches, b => Assert.InRange(b.Count, 1, 100));
        Assert.True(result.Summary.LatencyIsPerBatch);
    }

    [Fact]
    public async Task RunAsync_StopsEarlyAsFailed_WhenErrorsDominateFiveSeconds()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new DyingTarget(TimeSpan.FromSeconds(1), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 4 }, Stop = new StopOptions { DurationSeconds = 60 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.True(result.Summary.Elapsed < TimeSpan.FromSeconds(10), $"ran {result.Summary.Elapsed.TotalSeconds:F1} s");
        Assert.Matches(@"^errors dominate: \d+\.\d % of responses failed over the last 5 s", result.StopReason);
        Assert.Matches(@"\d+\.\d % of responses failed", result.FailureReason);
        Assert.Contains("503 ServiceUnavailable", result.FailureReason, StringComparison.Ordinal);
        Assert.True(result.Summary.TotalOk > 0);
    }

    [Fact]
    public async Task RunAsync_EndsFailed_WhenErrorsOutnumberSuccesses()
    {
        var (runner, _) = RunnerWith(() => new FailingTwoOfThreeTarget());
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 3 }, Stop = new StopOptions { TotalDocuments = 30 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal("took all 30 documents: 10 landed, 20 failed requests (unanswered or answered 408/5xx: each may or may not have landed)", result.StopReason);
        Assert.Equal((10, 20), (result.Summary.TotalOk, result.Summary.TotalErrors));
        Assert.Equal("Errors outnumber successes: 20 requests failed, 10 succeeded; the first error: 500 InternalServerError", result.FailureReason);
    }

    [Fact]
    public async Task RunAsync_EndsFailed_WhenSomeWritesFail_SayingHowManyAndWhetherTheyMayHaveLanded()
    {
        // Completed means the documents landed: a third of them failing (500s, which leave open whether they did) is no
        // completed run, though errors do not outnumber successes.
        var (runner, _) = RunnerWith(() => new FailingTwoOfThreeTarget(failEvery: 3));
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 3 }, Stop = new StopOptions { TotalDocuments = 30 } };

        var result = await runner.RunAsync(plan, NoSecrets);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal((20, 10), (result.Summary.TotalOk, result.Summary.TotalErrors));
        Assert.Equal("10 failed requests (unanswered or answered 408/5xx: each may or may not have landed); 20 landed; the first error: 500 InternalServerError", result.FailureReason);
    }

    [Fact]
    public async Task RunAsync_NamesTheFailedRequestsThatMayHaveLanded_ApartFromThoseRefused_AndBatchesAsBatches()
    {
        // Every third write refused with a 400, every fifth unanswered: only the unanswered may have landed.
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new MixedFailuresTarget(), time);
        var plan = new RunPlan
        {
            Workload = new WorkloadOptions { PartitionKey = new() { Strategy = PartitionKeyStrategy.FixedKeys, KeyCount = 3 } },
            Load = new LoadOptions { Concurrency = 1, BatchSize = 10 },
            Stop = new StopOptions { TotalDocuments = 300 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal(new Dictionary<int, long> { [400] = 10, [0] = 4 }, result.Summary.ErrorsByStatus);
        Assert.StartsWith("14 failed requests (batches of up to 10 documents; 4 of them unanswered or answered 408/5xx: each may or may not have landed); 160 landed", result.FailureReason, StringComparison.Ordinal);
        Assert.StartsWith("took all 300 documents: 160 landed, 14 failed requests (batches of up to 10 documents; 4 of them", result.StopReason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(99_999_999_999d)]
    [InlineData(-5d)]
    [InlineData(double.MaxValue)]
    public async Task RunAsync_TakesARetryAfterNoTimerCanWaitAsNone_AndCountsTheThrottle(double retryAfterMs)
    {
        // A Cosmos DB endpoint's x-ms-retry-after-ms of 99999999999 failed the run with an ArgumentOutOfRangeException.
        var time = SteppedClock.Create();
        var wait = retryAfterMs == double.MaxValue ? TimeSpan.MaxValue : TimeSpan.FromMilliseconds(retryAfterMs);
        var target = new FirstWriteThrottledTarget(OperationOutcome.Throttled(429, 0, wait));
        var (runner, _) = RunnerWith(() => target, time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { TotalDocuments = 5 } };

        var result = await RunSteppedAsync(runner, time, plan);

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal((5L, 1L), (result.Summary.TotalOk, result.Summary.TotalThrottled));
        Assert.True(result.Summary.AccountsBalance);
    }

    [Theory]
    [InlineData(LoadModel.ClosedLoop)]
    [InlineData(LoadModel.Waves)]
    [InlineData(LoadModel.OpenLoop)]
    public async Task RunAsync_BacksOffAfterEachError_SoADeadEndpointGetsFewRequests(LoadModel model)
    {
        var time = SteppedClock.Create();
        var target = new FailingTarget();
        var (runner, _) = RunnerWith(() => target, time);
        var plan = new RunPlan
        {
            Load = new LoadOptions { Model = model, Concurrency = 4, RatePerSecond = model == LoadModel.OpenLoop ? 1_000 : null },
            Stop = new StopOptions { DurationSeconds = 3 },
        };

        var result = await RunSteppedAsync(runner, time, plan);

        // 4 workers, each waiting 0.1, 0.2, 0.4, 0.8, 1.6 s after its failures: about 6 requests each in 3 s.
        Assert.InRange(target.Writes, 4, 40);
        Assert.Equal(RunStatus.Failed, result.Status);
    }

    [Fact]
    public async Task RunAsync_ResetsTheBackOff_AfterASuccess()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new FailingTwoOfThreeTarget(failEvery: 2), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 1 }, Stop = new StopOptions { TotalDocuments = 40 } };

        var result = await RunSteppedAsync(runner, time, plan);

        // 20 failures, each followed by a success: 20 waits of 100 ms (2 s), never a doubled one (19 of 200 ms would be 3.9 s).
        Assert.Equal(20, result.Summary.TotalErrors);
        Assert.InRange(result.Summary.Elapsed.TotalSeconds, 1.9, 2.5);
    }

    [Fact]
    public async Task RunAsync_ObserverThrows_FailsTheRun_WithAStopReasonThatSaysWhat()
    {
        var time = SteppedClock.Create();
        var (runner, _) = RunnerWith(() => new SlowTarget(TimeSpan.FromMilliseconds(20), time), time);
        var plan = new RunPlan { Load = new LoadOptions { Concurrency = 2 }, Stop = new StopOptions { DurationSeconds = 5 } };

        var result = await RunSteppedAsync(runner, time, plan, new ThrowingObserver());

        Assert.Equal(RunStatus.Failed, result.Status);
        Assert.Equal("The run failed (IOException).", result.FailureReason);
        Assert.Equal("an unexpected IOException while its seconds were recorded", result.StopReason);
    }

    /// <summary>An observer whose sink breaks at the first second.</summary>
    private sealed class ThrowingObserver : IRunObserver
    {
        public ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken) => ValueTask.CompletedTask;

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken) => throw new IOException("disk full");
    }

    private sealed class RecordingObserver : IRunObserver
    {
        public RunStart? Start { get; private set; }

        public List<SecondSnapshot> Seconds { get; } = [];

        public ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken)
        {
            Start = start;
            return ValueTask.CompletedTask;
        }

        public ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken)
        {
            Seconds.Add(second);
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>Test targets: engine behaviour that no real server here can provoke on demand.</summary>
    private abstract class TestTarget : IInsertTarget
    {
        public string Description => GetType().Name;

        public bool IsModel => true;

        public double? ProvisionedRequestUnits => null;

        public Task InitializeAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public abstract Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken);

        public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(0L);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }

    private sealed class ThrottleOnceTarget : TestTarget
    {
        private readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> _seen = new();

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken) =>
            Task.FromResult(_seen.TryAdd(documents[0].Id, true)
                ? OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5))
                : OperationOutcome.Ok(201, 1, 5, 100));
    }

    /// <summary>A service that takes <c>latency</c> of the run's clock to answer each write.</summary>
    private sealed class SlowTarget(TimeSpan latency, TimeProvider time) : TestTarget
    {
        public override async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            await Task.Delay(latency, time, cancellationToken);
            return OperationOutcome.Ok(201, documents.Count, 1, 1);
        }
    }

    private sealed class FailingTarget : TestTarget
    {
        private int _writes;

        public int Writes => Volatile.Read(ref _writes);

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _writes);
            return Task.FromResult(OperationOutcome.Failed(403, 0, "403 Forbidden: key rejected"));
        }
    }

    /// <summary>Fails some writes by count: with <c>failEvery</c> 3 (the default), writes 1 and 2 of every 3 fail;
    /// otherwise every <c>failEvery</c>-th write fails.</summary>
    private sealed class FailingTwoOfThreeTarget(int? failEvery = null) : TestTarget
    {
        private int _writes;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var n = Interlocked.Increment(ref _writes);
            var fails = failEvery is { } every ? n % every == 0 : n % 3 != 0;
            return Task.FromResult(fails ? OperationOutcome.Failed(500, 0, "500 InternalServerError") : OperationOutcome.Ok(201, 1, 1, 100));
        }
    }

    /// <summary>Of every 15 batches, 5 refused with a 400 (the 3rd, 6th…) and 2 unanswered (the 5th, 10th), the rest landing.</summary>
    private sealed class MixedFailuresTarget : TestTarget
    {
        private int _writes;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            var n = Interlocked.Increment(ref _writes);
            return Task.FromResult(n % 3 == 0 ? OperationOutcome.Failed(400, 0, "400 BadRequest")
                : n % 5 == 0 ? OperationOutcome.Failed(0, 0, "no response: the connection was closed")
                : OperationOutcome.Ok(201, documents.Count, 1, 100));
        }
    }

    /// <summary>Answers the first write with <paramref name="throttled"/>, every other one Ok.</summary>
    private sealed class FirstWriteThrottledTarget(OperationOutcome throttled) : TestTarget
    {
        private int _writes;

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken) =>
            Task.FromResult(Interlocked.Increment(ref _writes) == 1 ? throttled : OperationOutcome.Ok(201, 1, 1, 100));
    }

    /// <summary>Answers every write for a while, then only with 503s: a service that went down mid-run.</summary>
    private sealed class DyingTarget(TimeSpan alive, TimeProvider time) : TestTarget
    {
        private readonly long _start = time.GetTimestamp();

        public override async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(1), time, cancellationToken);
            return time.GetElapsedTime(_start) < alive
                ? OperationOutcome.Ok(201, 1, 1, 100)
                : OperationOutcome.Failed(503, 0, "503 ServiceUnavailable");
        }
    }

    private sealed class RecordingTarget : TestTarget
    {
        public System.Collections.Concurrent.ConcurrentBag<IReadOnlyList<Document>> Batches { get; } = [];

        public override Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            Batches.Add(documents.ToList());
            return Task.FromResult(OperationOutcome.Ok(202, documents.Count, 0, 0));
        }
    }
}
