using BenchEngine.Metrics;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Running;

/// <summary>Runs a <see cref="RunPlan"/> against its target and reports each second to an <see cref="IRunObserver"/>.</summary>
/// <remarks>
/// Stopping has two stages. First the engine stops issuing requests (count reached, duration over,
/// auto-stop, or cancellation). Requests already in flight are allowed <see cref="StopGracePeriod"/> to
/// return, so their documents are counted if they landed; only then are they cancelled.
/// </remarks>
/// <param name="time">The clock every second is measured with.</param>
/// <param name="targetFactory">Opens the target (tests pass fakes). Default: <see cref="TargetFactory.Create"/>.</param>
/// <param name="sourceFactory">Opens the workload's documents. Default: <see cref="DocumentSourceFactory.Create"/>; a host
/// wraps it to decide what a failure to read the workload may say (the dashboard never quotes an uploaded file).</param>
public sealed class BenchmarkRunner(
    TimeProvider time,
    Func<TargetOptions, TargetContext, IInsertTarget>? targetFactory = null,
    Func<WorkloadOptions, TimeProvider, IDocumentSource>? sourceFactory = null)
{
    /// <summary>How long in-flight requests may take to return after the run stops issuing.</summary>
    public static readonly TimeSpan StopGracePeriod = TimeSpan.FromSeconds(1.5);

    private static readonly TimeSpan OneSecond = TimeSpan.FromSeconds(1);

    private readonly Func<TargetOptions, TargetContext, IInsertTarget> _targetFactory = targetFactory ?? TargetFactory.Create;

    private readonly Func<WorkloadOptions, TimeProvider, IDocumentSource> _sourceFactory = sourceFactory ?? DocumentSourceFactory.Create;

    public BenchmarkRunner()
        : this(TimeProvider.System)
    {
    }

    /// <summary>Runs the plan to its end. Never throws for what happens during the run: a failure is a
    /// <see cref="RunStatus.Failed"/> result that keeps the seconds measured before it.</summary>
    /// <exception cref="RunPlanValidationException">The plan is invalid; nothing ran.</exception>
    public async Task<RunResult> RunAsync(RunPlan plan, TargetContext context, IRunObserver? observer = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(context);
        plan.EnsureValid();

        var environment = ClientEnvironment.Capture();
        var startedAt = time.GetUtcNow();
        await using var target = _targetFactory(plan.Target, context with { Time = time });
        try
        {
            await target.InitializeAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is TargetConfigurationException or OperationCanceledException)
        {
            return new RunResult
            {
                Status = cancellationToken.IsCancellationRequested ? RunStatus.Cancelled : RunStatus.Failed,
                StopReason = "the target could not be opened",
                FailureReason = ex.Message,
                TargetDescription = target.Description,
                TargetIsModel = target.IsModel,
                StartedAt = startedAt,
                Environment = environment,
                Summary = SummaryCalculator.Calculate([], new LatencyDistribution()),
            };
        }

        using var source = _sourceFactory(plan.Workload, time);
        using var session = new RunSession(plan, target, source, observer, environment, startedAt, time);
        return await session.RunAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The state of one run while it runs.</summary>
    private sealed class RunSession(
        RunPlan plan,
        IInsertTarget target,
        IDocumentSource source,
        IRunObserver? observer,
        ClientEnvironment environment,
        DateTimeOffset startedAt,
        TimeProvider time) : IDisposable
    {
        private readonly RunRecorder _recorder = new();
        private readonly List<SecondSnapshot> _seconds = [];
        private readonly CancellationTokenSource _stopIssuing = new(Timeout.InfiniteTimeSpan, time);
        private readonly CancellationTokenSource _abort = new(Timeout.InfiniteTimeSpan, time);
        private string? _stopReason;

        public async Task<RunResult> RunAsync(CancellationToken cancellationToken)
        {
            using var cancellation = cancellationToken.Register(() => Stop("cancelled by the user"));
            using var abortAfterGrace = _stopIssuing.Token.Register(() => _abort.CancelAfter(StopGracePeriod));
            if (plan.Stop.DurationSeconds is { } seconds)
            {
                _stopIssuing.CancelAfter(TimeSpan.FromSeconds(seconds));
            }

            var cpu = new CpuSampler(time);
            var start = time.GetTimestamp();
            var work = new WorkSource(source, plan.Load.BatchSize, plan.DocumentLimit);
            var executor = new OperationExecutor(target, plan.Target.Operation, plan.Load.Throttling, _recorder, time, _stopIssuing.Token, _abort.Token);

            string? failure = null;
            try
            {
                if (observer is not null)
                {
                    await observer.OnStartedAsync(new RunStart(target.Description, target.IsModel, target.ProvisionedRequestUnits, environment, startedAt), CancellationToken.None).ConfigureAwait(false);
                }

                var load = Task.Run(() => LoadDriver.RunAsync(plan.Load, work, executor, time, _stopIssuing.Token), CancellationToken.None);
                await TickUntilAsync(load, start, cpu).ConfigureAwait(false);
                await load.ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                failure = $"{ex.GetType().Name}: {ex.Message}";
                Stop("failed");
            }

            // The last, usually partial, second: nothing measured is dropped.
            var elapsed = time.GetElapsedTime(start);
            var closedUpTo = TimeSpan.FromSeconds(_seconds.Count);
            if (elapsed > closedUpTo || _seconds.Count == 0)
            {
                _seconds.Add(_recorder.CloseSecond(_seconds.Count, elapsed, elapsed - closedUpTo, cpu.Sample()));
                await NotifyAsync(_seconds[^1]).ConfigureAwait(false);
            }

            var summary = SummaryCalculator.Calculate(_seconds, _recorder.Total, plan.Load.BatchSize > 1, target.ProvisionedRequestUnits);
            var status = failure is not null ? RunStatus.Failed
                : _stopReason == "cancelled by the user" ? RunStatus.Cancelled
                : summary.TotalOk == 0 && summary.TotalErrors > 0 ? RunStatus.Failed
                : RunStatus.Completed;
            if (status == RunStatus.Failed && failure is null)
            {
                failure = $"Every write failed; the first error: {executor.FirstError}";
            }

            return new RunResult
            {
                Status = status,
                StopReason = _stopReason ?? DescribeNaturalEnd(work),
                FailureReason = failure,
                FirstError = executor.FirstError,
                TargetDescription = target.Description,
                TargetIsModel = target.IsModel,
                StartedAt = startedAt,
                Environment = environment,
                Seconds = _seconds,
                Summary = summary,
                AbandonedRequests = executor.Abandoned,
            };
        }

        private async Task TickUntilAsync(Task load, long start, CpuSampler cpu)
        {
            while (true)
            {
                var boundary = TimeSpan.FromSeconds(_seconds.Count + 1);
                var wait = boundary - time.GetElapsedTime(start);
                if (wait > TimeSpan.Zero)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var delay = Task.Delay(wait, time, delayCancellation.Token);
                    if (await Task.WhenAny(delay, load).ConfigureAwait(false) == load)
                    {
                        await delayCancellation.CancelAsync().ConfigureAwait(false);
                        return;
                    }
                }

                var second = _recorder.CloseSecond(_seconds.Count, boundary, OneSecond, cpu.Sample());
                _seconds.Add(second);
                await NotifyAsync(second).ConfigureAwait(false);
                CheckAutoStop();
            }
        }

        private async Task NotifyAsync(SecondSnapshot second)
        {
            if (observer is not null)
            {
                await observer.OnSecondAsync(second, CancellationToken.None).ConfigureAwait(false);
            }
        }

        private void CheckAutoStop()
        {
            if (plan.Stop.AutoStop is not { } rule || _seconds.Count < rule.WindowSeconds || _stopIssuing.IsCancellationRequested)
            {
                return;
            }

            var window = _seconds.Skip(_seconds.Count - rule.WindowSeconds).ToList();
            var responses = window.Sum(s => s.OkRequests + s.Throttled + s.Errors);
            if (responses == 0)
            {
                return;
            }

            var throttled = window.Sum(s => s.Throttled) / (double)responses;
            var errors = window.Sum(s => s.Errors) / (double)responses;
            if (rule.ThrottledFractionAbove is { } maxThrottled && throttled > maxThrottled)
            {
                Stop($"auto-stop: {throttled:P1} of responses throttled over the last {rule.WindowSeconds} s (limit {maxThrottled:P1})");
            }
            else if (rule.ErrorFractionAbove is { } maxErrors && errors > maxErrors)
            {
                Stop($"auto-stop: {errors:P1} of responses failed over the last {rule.WindowSeconds} s (limit {maxErrors:P1})");
            }
        }

        private void Stop(string reason)
        {
            Interlocked.CompareExchange(ref _stopReason, reason, null);
            _stopIssuing.Cancel();
        }

        public void Dispose()
        {
            _stopIssuing.Dispose();
            _abort.Dispose();
        }

        private string DescribeNaturalEnd(WorkSource work) =>
            plan.DocumentLimit is { } limit && work.Taken >= limit ? $"reached {limit:N0} documents"
            : plan.Stop.DurationSeconds is { } duration && _stopIssuing.IsCancellationRequested ? $"ran for {duration:N0} s"
            : "the workload ended (end of file)";
    }
}
