using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using Polly;
using Polly.Retry;

namespace BenchEngine.Running;

/// <summary>
/// Sends one request with the engine's throttle handling and records every response: each throttled
/// response is counted when it arrives (retried or not), and the final successful response carries the
/// operation's latency from its intended start, retries and back-off included.
/// </summary>
internal sealed class OperationExecutor
{
    private readonly IInsertTarget _target;
    private readonly WriteOperation _operation;
    private readonly RunRecorder _recorder;
    private readonly ThrottleGate _gate;
    private readonly TimeProvider _time;
    private readonly ResiliencePipeline<OperationOutcome> _pipeline;
    private readonly StopSignal _stopIssuing;
    private readonly CancellationToken _abort;
    private readonly bool _retries;
    private string? _firstError;

    public OperationExecutor(
        IInsertTarget target,
        WriteOperation operation,
        ThrottleOptions throttling,
        RunRecorder recorder,
        TimeProvider time,
        StopSignal stopIssuing,
        CancellationToken abort)
    {
        _target = target;
        _operation = operation;
        _recorder = recorder;
        _time = time;
        _stopIssuing = stopIssuing;
        _abort = abort;
        _gate = new ThrottleGate(time, throttling.SharedBackoff);
        _pipeline = BuildPipeline(throttling);
        _retries = throttling.MaxRetries > 0;
    }

    /// <summary>Open loop: <paramref name="count"/> requests were due but not sent.</summary>
    public void Dropped(long count) => _recorder.RequestsDropped(count);

    /// <summary><paramref name="count"/> requests were due when issuing stopped, and are not sent.</summary>
    public void NotStarted(long count) => _recorder.RequestsNotStarted(count);

    /// <summary>The first failure message (not a throttle), for the run's report.</summary>
    public string? FirstError => Volatile.Read(ref _firstError);

    /// <summary>Sends <paramref name="documents"/>; latency counts from <paramref name="intendedStart"/> (a <see cref="TimeProvider"/> timestamp).
    /// <paramref name="late"/>: the open loop sends it more than <see cref="Metrics.SecondSnapshot.LateAfter"/> after its intended
    /// start, counted as sent late once it is sent (not when issuing had stopped first: then it is not started).</summary>
    /// <returns>The final outcome's kind, for the sender's <see cref="FailureBackoff"/>; null when the request did
    /// not complete (the run stopped first).</returns>
    /// <remarks>Each request ends in exactly one of the recorder's buckets: not started (issuing had stopped when it came to
    /// be sent), ok, error, given up, or abandoned (cut off at the stop). A value task: a write that completes at once (the
    /// no-op target, a client that answers from its buffer) allocates no task for its outcome.</remarks>
    public async ValueTask<OutcomeKind?> ExecuteAsync(IReadOnlyList<Document> documents, long intendedStart, bool late = false)
    {
        if (_stopIssuing.IsSet)
        {
            _recorder.RequestsNotStarted(1);
            return null;
        }

        // Sent, then late: never more sent late than sent, whichever second each falls in.
        _recorder.OperationStarted();
        if (late)
        {
            _recorder.RequestSentLate();
        }

        try
        {
            // The first attempt goes straight to the target: most are not throttled, and the retry pipeline would cost a fifth
            // of a no-op insert. A throttled one is handed to the pipeline as its first attempt's outcome (replayed, not sent
            // again), so the retries, their delays and their counting are the pipeline's, exactly as if it had made it.
            var outcome = await AttemptAsync(this, documents, _stopIssuing.Token).ConfigureAwait(false);
            var attempts = 1;
            if (outcome.Kind == OutcomeKind.Throttled && _retries)
            {
                if (_stopIssuing.Token.IsCancellationRequested)
                {
                    // Throttled as the run stopped: the pipeline would not start (its token is cancelled), so it would not
                    // count the throttle either. Counted here, as its retry would have before waiting; then abandoned.
                    _recorder.Record(outcome);
                    _stopIssuing.Token.ThrowIfCancellationRequested();
                }

                var retried = new Retried(this, documents, outcome);
                outcome = await _pipeline.ExecuteAsync(
                    static (state, ct) => state.TakeReplay() is { } first ? ValueTask.FromResult(first) : state.AttemptAgainAsync(ct),
                    retried,
                    _stopIssuing.Token).ConfigureAwait(false);
                attempts = retried.Attempts;
            }

            if (outcome.Kind == OutcomeKind.Throttled)
            {
                // Still throttled when the retries ran out: the documents are given up, a figure of their own (after a 5xx
                // answer they may have landed all the same).
                _recorder.RecordGivenUp(outcome, documents.Count, _time.GetElapsedTime(intendedStart), attempts);
                return outcome.Kind;
            }

            // A success's latency goes to the percentiles; a failure's time only to the slow-request diagnostics.
            var elapsed = _time.GetElapsedTime(intendedStart);
            if (outcome.Kind == OutcomeKind.Ok)
            {
                _recorder.Record(outcome, elapsed, final: true, attempts: attempts);
            }
            else
            {
                _recorder.Record(outcome, null, final: true, elapsed, attempts);
            }

            if (outcome.Kind == OutcomeKind.Error && outcome.Error is { } error)
            {
                Interlocked.CompareExchange(ref _firstError, error, null);
            }

            return outcome.Kind;
        }
        catch (OperationCanceledException) when (_abort.IsCancellationRequested || _stopIssuing.IsSet)
        {
            // Cut off in flight after the grace period (its outcome unknown), or while waiting out a throttle (it did not land
            // unless an earlier attempt was answered 5xx, which leaves that open).
            _recorder.RecordAbandoned();
            return null;
        }
    }

    private static async ValueTask<OperationOutcome> AttemptAsync(OperationExecutor executor, IReadOnlyList<Document> documents, CancellationToken stop)
    {
        await executor._gate.WaitAsync(stop).ConfigureAwait(false);
        stop.ThrowIfCancellationRequested();

        // In flight, a request is cancelled only by the abort token (after the stop grace period): cancelling it at once
        // would leave unknown whether its document landed.
        return await executor._target.WriteAsync(documents, executor._operation, executor._abort).ConfigureAwait(false);
    }

    private ResiliencePipeline<OperationOutcome> BuildPipeline(ThrottleOptions throttling)
    {
        var builder = new ResiliencePipelineBuilder<OperationOutcome> { TimeProvider = _time };
        if (throttling.MaxRetries > 0)
        {
            builder.AddRetry(new RetryStrategyOptions<OperationOutcome>
            {
                ShouldHandle = static args => ValueTask.FromResult(args.Outcome.Result.Kind == OutcomeKind.Throttled),
                MaxRetryAttempts = throttling.MaxRetries,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
                Delay = TimeSpan.FromMilliseconds(throttling.BaseDelayMs),
                MaxDelay = TimeSpan.FromSeconds(30),

                // The service knows best when its budget refills: honour its retry-after when it sends one.
                DelayGenerator = static args => ValueTask.FromResult(args.Outcome.Result.RetryAfter),
                OnRetry = args =>
                {
                    _recorder.Record(args.Outcome.Result);
                    _gate.PauseFor(args.RetryDelay);
                    return default;
                },
            });
        }

        return builder.Build();
    }

    /// <summary>A throttled request's retries: its first attempt's outcome, replayed once to the pipeline, then real attempts.</summary>
    private sealed class Retried(OperationExecutor executor, IReadOnlyList<Document> documents, OperationOutcome first)
    {
        public OperationExecutor Executor { get; } = executor;

        public IReadOnlyList<Document> Documents { get; } = documents;

        /// <summary>Requests sent so far: the first, and each retry.</summary>
        public int Attempts { get; private set; } = 1;

        private OperationOutcome? _replay = first;

        // Whether an attempt so far was answered in a way that leaves open whether it landed (a 5xx).
        private bool _mayHaveLanded = first.MayHaveLanded;

        /// <summary>Sends the request once more. After an attempt that may have landed, a Create's "already exists" is that
        /// attempt's documents found where it put them: they count as landed, not as an error (the service does not say
        /// which attempt landed them; counting them neither as an error nor twice keeps ok equal to what the target holds).</summary>
        public async ValueTask<OperationOutcome> AttemptAgainAsync(CancellationToken stop)
        {
            Attempts++;
            var outcome = await AttemptAsync(Executor, Documents, stop).ConfigureAwait(false);
            if (_mayHaveLanded)
            {
                outcome = outcome.AfterAmbiguousAttempt();
            }

            _mayHaveLanded |= outcome.MayHaveLanded;
            return outcome;
        }

        /// <summary>The first attempt's outcome the first time, then null.</summary>
        public OperationOutcome? TakeReplay()
        {
            var replay = _replay;
            _replay = null;
            return replay;
        }
    }
}
