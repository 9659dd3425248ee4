using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Engine.Running;

/// <summary>The executor's accounting where the first attempt and the retry pipeline meet.</summary>
[UnitTest]
public class OperationExecutorTests
{
    private static readonly Document[] OneDocument = [new("d1", "pk", [])];

    [Fact]
    public async Task ExecuteAsync_ThrottledAsTheRunStops_CountsTheThrottleOnce_AndAbandonsTheRequest()
    {
        var time = new FakeTimeProvider();
        using var stop = new StopSignal(time);
        var recorder = new RunRecorder();
        var target = new Scripted(() =>
        {
            // The stop comes while the request is in flight; its answer is a throttle.
            stop.Set();
            return OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5));
        });
        var executor = new OperationExecutor(target, WriteOperation.Create, new ThrottleOptions { SharedBackoff = false }, recorder, time, stop, CancellationToken.None);

        var kind = await executor.ExecuteAsync(OneDocument, time.GetTimestamp());
        var second = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);

        Assert.Null(kind);
        Assert.Equal(1, target.Writes);
        Assert.Equal((1L, 1L, 0L), (second.Throttled, second.Abandoned, second.Ok));
    }

    [Fact]
    public async Task ExecuteAsync_ThrottledThenLanded_CountsEveryThrottle_AndSendsEachRetryOnce()
    {
        var time = new FakeTimeProvider();
        using var stop = new StopSignal(time);
        var recorder = new RunRecorder();
        var answers = new Queue<OperationOutcome>([
            OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5)),
            OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5)),
            OperationOutcome.Ok(201, 1, 5, 100),
        ]);
        var target = new Scripted(answers.Dequeue);
        var executor = new OperationExecutor(target, WriteOperation.Create, new ThrottleOptions { SharedBackoff = false }, recorder, time, stop, CancellationToken.None);

        var executing = executor.ExecuteAsync(OneDocument, time.GetTimestamp());
        while (!executing.IsCompleted)
        {
            // Each retry waits out the throttle's 5 ms on the fake clock.
            time.Advance(TimeSpan.FromMilliseconds(5));
            await Task.Delay(1);
        }

        var second = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);
        Assert.Equal(OutcomeKind.Ok, await executing);
        Assert.Equal(3, target.Writes);
        Assert.Equal((2L, 1L, 0L), (second.Throttled, second.Ok, second.Abandoned));
    }

    [Fact]
    public async Task ExecuteAsync_CountsACreateAsLanded_WhenItsRetryFindsItAlreadyThereAfterA500()
    {
        // The first attempt landed although the service answered 500 "operation timed out"; the retry finds it there.
        var second = await ExecuteThrottledAsync(
            OperationOutcome.Throttled(500, 0, TimeSpan.FromMilliseconds(5)),
            OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5)),
            OperationOutcome.AlreadyExists(409, 0, 1, 100, "409 EntityAlreadyExists"));

        Assert.Equal((1L, 1L, 100L, 0L, 2L), (second.Ok, second.OkRequests, second.Bytes, second.Errors, second.Throttled));
    }

    [Fact]
    public async Task ExecuteAsync_CountsAnError_WhenACreateFindsItAlreadyThereAfterOnlyA429()
    {
        // A 429 refuses a request before doing anything: what the retry finds was there before this request.
        var second = await ExecuteThrottledAsync(
            OperationOutcome.Throttled(429, 0, TimeSpan.FromMilliseconds(5)),
            OperationOutcome.AlreadyExists(409, 0, 1, 100, "409 EntityAlreadyExists"));

        Assert.Equal((0L, 1L, 1L), (second.Ok, second.Errors, second.Throttled));
    }

    [Fact]
    public async Task ExecuteAsync_CountsAnError_WhenACreateFindsItAlreadyThereOnItsFirstAttempt()
    {
        var second = await ExecuteThrottledAsync(OperationOutcome.AlreadyExists(409, 0, 1, 100, "409 EntityAlreadyExists"));

        Assert.Equal((0L, 1L, 0L), (second.Ok, second.Errors, second.Throttled));
    }

    [Fact]
    public async Task ExecuteAsync_LateRequestThatComesAfterTheStop_IsNotStarted_NotSentLate()
    {
        var time = new FakeTimeProvider();
        using var stop = new StopSignal(time);
        var recorder = new RunRecorder();
        var target = new Scripted(() => OperationOutcome.Ok(201, 1, 5, 100));
        var executor = new OperationExecutor(target, WriteOperation.Create, new ThrottleOptions { SharedBackoff = false }, recorder, time, stop, CancellationToken.None);

        // One late request sent, then the stop, then another late one the sender had already taken.
        Assert.Equal(OutcomeKind.Ok, await executor.ExecuteAsync(OneDocument, time.GetTimestamp(), late: true));
        stop.Set();
        Assert.Null(await executor.ExecuteAsync(OneDocument, time.GetTimestamp(), late: true));
        var second = recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);

        // Sent late is a share of what was sent: never more than it.
        Assert.Equal((1L, 1L, 1L), (second.Issued, second.SentLate, second.NotStarted));
        Assert.Equal(1, target.Writes);
    }

    /// <summary>Executes one Create whose attempts are answered with <paramref name="answers"/> in turn, each retry waiting
    /// out its throttle on the fake clock, and returns the second that counted it.</summary>
    private static async Task<SecondSnapshot> ExecuteThrottledAsync(params OperationOutcome[] answers)
    {
        var time = new FakeTimeProvider();
        using var stop = new StopSignal(time);
        var recorder = new RunRecorder();
        var queue = new Queue<OperationOutcome>(answers);
        var target = new Scripted(queue.Dequeue);
        var executor = new OperationExecutor(target, WriteOperation.Create, new ThrottleOptions { SharedBackoff = false }, recorder, time, stop, CancellationToken.None);

        var executing = executor.ExecuteAsync(OneDocument, time.GetTimestamp());
        while (!executing.IsCompleted)
        {
            time.Advance(TimeSpan.FromMilliseconds(5));
            await Task.Delay(1);
        }

        await executing;
        Assert.Equal(answers.Length, target.Writes);
        return recorder.CloseSecond(0, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 0);
    }

    private sealed class Scripted(Func<OperationOutcome> answer) : IInsertTarget
    {
        private int _writes;

        public int Writes => Volatile.Read(ref _writes);

        public string Description => "scripted";

        public bool IsModel => true;

        public double? ProvisionedRequestUnits => null;

        public Task InitializeAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _writes);
            return Task.FromResult(answer());
        }

        public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(0L);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
