using System.Globalization;
using System.Collections.Concurrent;
using System.Threading.Channels;
using BenchEngine.Diagnostics;
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
/// <param name="targetFactory">Opens the target (tests pass fakes). Default: <see cref="TargetRegistry.Create"/>.</param>
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

    private readonly Func<TargetOptions, TargetContext, IInsertTarget> _targetFactory = targetFactory ?? TargetRegistry.Create;

    private readonly Func<WorkloadOptions, TimeProvider, IDocumentSource> _sourceFactory = sourceFactory ?? DocumentSourceFactory.Create;

    public BenchmarkRunner()
        : this(TimeProvider.System)
    {
    }

    /// <summary>The clock the runner measures with: a host stamps what it records of a run (its end) with the same one.</summary>
    public TimeProvider Time => time;

    /// <summary>The bounds past which a second is the client's, not the service's (<see cref="ClientHealth.Limits"/>).</summary>
    public ClientLimits ClientLimits { get; init; } = ClientLimits.Default;

    /// <summary>Measures the client's health each second (default: a <see cref="ClientHealthMonitor"/> with
    /// <see cref="ClientLimits"/>); null switches it off (the "client-health off" benchmark), and seconds then have none.</summary>
    public Func<ClientLimits, IClientHealthSource>? ClientHealth { get; init; } = static limits => new ClientHealthMonitor(limits);

    /// <summary>How long the hot path runs unmeasured against the no-op target before the run's clock starts
    /// (<see cref="EngineWarmUp"/>). Default 0.3 s on the system clock; none on any other (tests).</summary>
    public TimeSpan? WarmUp { get; init; }

    /// <summary>Runs the plan to its end. Never throws for what happens during the run: a failure is a
    /// <see cref="RunStatus.Failed"/> result that keeps the seconds measured before it.</summary>
    /// <exception cref="RunPlanValidationException">The plan is invalid; nothing ran.</exception>
    public async Task<RunResult> RunAsync(RunPlan plan, TargetContext context, IRunObserver? observer = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(context);
        return await RunAsync(plan.EnsureValid(), context, observer, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Runs a plan already checked (<see cref="RunPlan.Check"/>) to its end, without checking it again. Never throws
    /// for what happens during the run: a failure is a <see cref="RunStatus.Failed"/> result that keeps the seconds measured
    /// before it.</summary>
    public async Task<RunResult> RunAsync(CheckedPlan checkedPlan, TargetContext context, IRunObserver? observer = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(checkedPlan);
        ArgumentNullException.ThrowIfNull(context);
        var plan = checkedPlan.Plan;

        var environment = ClientEnvironment.Capture();
        var startedAt = time.GetUtcNow();

        // The secrets the target reads are noted, so that no slow request's diagnostics can hold one of them.
        var secretsRead = new ConcurrentQueue<string>();
        var resolve = context.ResolveSecret;
        await using var target = _targetFactory(plan.Target, context with
        {
            Time = time,
            ResolveSecret = name =>
            {
                var value = resolve(name);
                if (value is not null)
                {
                    secretsRead.Enqueue(value);
                }

                return value;
            },
        });
        RunResult NotStarted(RunStatus status, string stopReason, string? failure) => new()
        {
            Status = status,
            StopReason = stopReason,
            FailureReason = failure,
            TargetDescription = target.Description,
            TargetIsModel = target.IsModel,
            StartedAt = startedAt,
            Environment = environment,
            Summary = SummaryCalculator.Calculate([], new LatencyDistribution()),
        };

        try
        {
            await target.InitializeAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return NotStarted(RunStatus.Cancelled, CancelledByUser, null);
        }
        catch (TargetConfigurationException ex)
        {
            return NotStarted(RunStatus.Failed, TargetNotOpened, ex.Message);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A target's own exceptions carry what the endpoint answered: only their type is passed on.
            return NotStarted(RunStatus.Failed, TargetNotOpened, $"The target could not be opened ({ex.GetType().Name}).");
        }

        IDocumentSource source;
        try
        {
            source = _sourceFactory(plan.Workload, time);
        }
        catch (Exception ex) when (ex is ArgumentException or IOException or UnauthorizedAccessException or InvalidDataException or CsvHelper.CsvHelperException)
        {
            // The file changed since the plan was validated. Its problems are the same "cannot be used" as in validation:
            // whoever reads this may not be on this machine.
            return NotStarted(RunStatus.Failed, "the workload could not be opened", ex is ArgumentException ? ex.Message : "The workload file cannot be used.");
        }

        using (source)
        {
            source.MeasureWith(target.MeasureRequestBytes);
            var warmUp = WarmUp ?? (time == TimeProvider.System ? TimeSpan.FromSeconds(0.3) : TimeSpan.Zero);
            await EngineWarmUp.RunAsync(plan, target.MeasureRequestBytes, time, warmUp, cancellationToken).ConfigureAwait(false);
            using var health = ClientHealth?.Invoke(ClientLimits);
            using var session = new RunSession(plan, target, source, observer, environment, startedAt, time, new EngineTelemetry(context.Telemetry))
            {
                SecretsRead = () => secretsRead,
                StartAt = context.StartAt,
                Health = health,
                Limits = ClientLimits,
            };
            return await session.RunAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private const string CancelledByUser = "cancelled by the user";

    /// <summary>An open loop that left more than this share of its schedule unsent ends Failed, unless the plan sets its own
    /// limit (<see cref="ThresholdOptions.MaxDroppedPercent"/>, judged as a threshold).</summary>
    public const double DefaultMaxUnsentPercent = 10;

    /// <summary>How a stop reason writes a duration in seconds: as the plan gave it, never rounded (0.55, 2.5, 3,600).</summary>
    public const string SecondsFormat = "#,0.##########";

    private const string TargetNotOpened = "the target could not be opened";

    /// <summary>The state of one run while it runs.</summary>
    private sealed class RunSession(
        RunPlan plan,
        IInsertTarget target,
        IDocumentSource source,
        IRunObserver? observer,
        ClientEnvironment environment,
        DateTimeOffset startedAt,
        TimeProvider time,
        EngineTelemetry telemetry) : IDisposable
    {
        /// <summary>The built-in rule's window: errors that dominate this many full seconds mean the target is down.</summary>
        private const int ErrorWindowSeconds = 5;

        // A shard's seconds keep their latencies, so its host can merge them with the other shards'; so do a staged run's, so
        // that each stage's percentiles are over all of its operations.
        private readonly RunRecorder _recorder = new(keepSecondHistograms: plan.Workload.Shard is not null || plan.Load.Stages.Count > 0, plan.EffectiveDiagnostics) { Telemetry = telemetry };
        private readonly List<SecondSnapshot> _seconds = [];
        private readonly StopSignal _stopIssuing = new(time);
        private readonly CancellationTokenSource _abort = new(Timeout.InfiniteTimeSpan, time);

        // The clock's wake-up on a clock other than the system's (WaitForLoad).
        private readonly ManualResetEventSlim _due = new(initialState: false, spinCount: 0);

        // The clock hands each closed second to the observer through this, and never waits for it: a slow or absent sink
        // (database, hub, Redis) makes seconds late, never different. It holds at most the run's own seconds, which the
        // engine keeps anyway.
        private readonly Channel<ClosedSecond> _handOff =
            Channel.CreateUnbounded<ClosedSecond>(new() { SingleReader = true, SingleWriter = true });

        // The run's slow requests, described on the hand-off's side (never on the clock's or the load's); null when off.
        private SlowRequestLog? _slowRequests;
        private string? _stopReason;
        private Exception? _observerFailure;

        // How an early stop ends the run (Stopped for an auto-stop rule, Failed when errors dominate), and why it failed.
        private RunStatus? _stopStatus;
        private string? _stopFailure;
        private OperationExecutor? _executor;

        // Whole seconds after the common start (StartAt) that this shard's clock started: its duration is shorter by as much.
        private int _joinedLateSeconds;

        /// <summary>The plan's duration less the seconds this shard joined late (never below 0).</summary>
        private double? DurationSeconds => plan.EffectiveDurationSeconds is { } seconds ? Math.Max(0, seconds - _joinedLateSeconds) : null;

        public DateTimeOffset? StartAt { get; init; }

        public IClientHealthSource? Health { get; init; }

        public ClientLimits Limits { get; init; } = ClientLimits.Default;

        /// <summary>The values of the secrets the target read so far.</summary>
        public Func<IEnumerable<string>> SecretsRead { get; init; } = static () => [];

        public async Task<RunResult> RunAsync(CancellationToken cancellationToken)
        {
            using var cancellation = cancellationToken.Register(() => Stop(CancelledByUser));
            using var abortAfterGrace = _stopIssuing.Token.Register(() => _abort.CancelAfter(StopGracePeriod));
            var work = new WorkSource(source, plan.Load.BatchSize, plan.DocumentLimit, plan.Target.Kind.Module.BatchesSharePartitionKey);
            var executor = new OperationExecutor(target, plan.Target.Operation, plan.Load.Throttling, _recorder, time, _stopIssuing, _abort.Token);
            _executor = executor;
            var offered = plan.Load.OfferedRatePerSecond;
            _slowRequests = plan.EffectiveDiagnostics.IsOff ? null : new SlowRequestLog(target, SecretsRead);

            string? failure = null;
            var start = time.GetTimestamp();
            var cpu = new CpuSampler(time);
            var pump = Task.CompletedTask;
            try
            {
                if (observer is not null)
                {
                    var announced = new RunStart(target.Description, target.IsModel, target.ProvisionedRequestUnits, environment, startedAt)
                    {
                        ProvisionedAutoscale = target.ProvisionedAutoscale,
                        RequestUnitsReported = target.ReportsRequestUnits,
                        OfferedRequestsPerSecond = offered,
                    };
                    await observer.OnStartedAsync(announced, CancellationToken.None).ConfigureAwait(false);
                }

                // A common start (a shard of a run spread over agents): wait for it; a cancel ends the wait.
                if (StartAt is { } startAt && startAt - time.GetUtcNow() is { Ticks: > 0 } wait)
                {
                    await Task.Delay(wait, time, _stopIssuing.Token).ContinueWith(static _ => { }, TaskScheduler.Default).ConfigureAwait(false);
                }

                // A shard that starts after the common start (its agent was busy, or slow to take its job) stops at the common
                // end: the run lasts its duration on every agent. Whole seconds late, as its seconds are placed in the run's.
                if (StartAt is { } commonStart && Math.Round((time.GetUtcNow() - commonStart).TotalSeconds) is > 0 and var late)
                {
                    _joinedLateSeconds = (int)Math.Min(late, int.MaxValue);
                }

                // The run's clock, its duration stop and the target's seconds start at one instant, after the observer
                // recorded the start: a 30 s run lasts 30 s by every clock that reports it.
                pump = Task.Run(PumpAsync, CancellationToken.None);
                cpu = new CpuSampler(time);
                Health?.Start();
                start = time.GetTimestamp();
                _stopIssuing.PlannedAt = DurationSeconds is { } planned ? PlannedStop(start, TimeSpan.FromSeconds(planned)) : null;
                target.RunClockStarted(start);
                var load = Task.Run(() => LoadDriver.RunAsync(plan.Load, work, executor, time, start, _stopIssuing), CancellationToken.None);
                await RunClock.RunAsync(this, load, start, cpu).ConfigureAwait(false);
                await load.ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // Only a workload's own messages (where a file could not be read, never what it holds) are passed on;
                // other exceptions may carry text from elsewhere.
                failure = ex is InvalidDataException ? $"The workload could not be read: {ex.Message}" : $"The run failed ({ex.GetType().Name}).";
                // The stop reason says what stopped it, beside a status that already says Failed: never "Failed (failed)".
                Stop(ex is InvalidDataException ? "the workload could not be read" : $"an unexpected {ex.GetType().Name}");
            }

            // The last, usually partial, second: nothing measured is dropped, not even a response recorded at the very
            // instant the previous second closed (a second of no length then holds it).
            var elapsed = time.GetElapsedTime(start);
            var closedUpTo = TimeSpan.FromSeconds(_seconds.Count);
            if (elapsed > closedUpTo || _seconds.Count == 0 || _recorder.HasOpenCounts)
            {
                Close(elapsed, elapsed - closedUpTo, cpu, clockStart: null);
            }

            // Every second reaches the observer before the run ends, however late.
            _handOff.Writer.TryComplete();
            await pump.ConfigureAwait(false);
            if (_observerFailure is { } observerFailure && failure is null)
            {
                failure = $"The run failed ({observerFailure.GetType().Name}).";
            }

            var summary = SummaryCalculator.Calculate(_seconds, _recorder.Total, new SummaryOptions
            {
                LatencyIsPerBatch = plan.Load.BatchSize > 1,
                ProvisionedRequestUnitsPerSecond = target.ProvisionedRequestUnits,
                Autoscale = target.ProvisionedAutoscale,
                RequestUnitsReported = target.ReportsRequestUnits,
                OfferedRequestsPerSecond = offered,
                StageSeconds = plan.Load.Stages.Select(s => s.DurationSeconds).ToList(),
                ClientLimits = Limits,
            });
            // A plan with its own limit on unsent requests judges them by its thresholds (a missed threshold, not a failed run).
            var unsentLimit = plan.Thresholds?.MaxDroppedPercent is null ? DefaultMaxUnsentPercent / 100 : double.PositiveInfinity;

            // Completed means the plan's own stop rule was met and the documents landed; a run whose writes mostly failed
            // did not measure the target, whatever stopped it.
            (var status, failure) = (failure, _stopReason, _stopStatus) switch
            {
                ({ } crashed, _, _) => (RunStatus.Failed, crashed),
                (_, CancelledByUser, _) => (RunStatus.Cancelled, null),
                (_, _, RunStatus.Failed) => (RunStatus.Failed, _stopFailure),
                _ when summary.TotalOkRequests == 0 && summary.TotalErrors > 0 =>
                    (RunStatus.Failed, $"Every write failed; the first error: {executor.FirstError}"),
                _ when summary.TotalErrors > summary.TotalOkRequests => (RunStatus.Failed, string.Create(CultureInfo.InvariantCulture,
                    $"Errors outnumber successes: {summary.TotalErrors:N0} requests failed, {summary.TotalOkRequests:N0} succeeded; the first error: {executor.FirstError}")),
                _ when summary.TotalGivenUp > 0 => (RunStatus.Failed, NotLanded(summary, executor.FirstError)),
                (_, _, RunStatus.Stopped) => (RunStatus.Stopped, null),
                // Completed means the documents landed: a run with failed writes, however few, says how many and what became of them.
                _ when summary.TotalErrors > 0 => (RunStatus.Failed, NotLanded(summary, executor.FirstError)),
                _ when plan.Load.Model == LoadModel.OpenLoop && summary.DroppedFraction > unsentLimit => (RunStatus.Failed, string.Create(CultureInfo.InvariantCulture,
                    $"The open loop did not deliver its schedule: {summary.DroppedFraction:P1} of the requests due were not sent ({summary.TotalUnsent:N0} of {summary.TotalIssued + summary.TotalUnsent:N0}; limit {unsentLimit:P0}; a plan's thresholds.maxDroppedPercent sets its own){UnsentClientPart(summary, _seconds)}")),
                _ => (RunStatus.Completed, (string?)null),
            };

            return new RunResult
            {
                Status = status,
                StopReason = _stopReason ?? DescribeNaturalEnd(work, summary),
                FailureReason = failure,
                FirstError = executor.FirstError,
                TargetDescription = target.Description,
                TargetIsModel = target.IsModel,
                StartedAt = startedAt,
                Environment = environment,
                Seconds = _seconds,
                Summary = summary,
                Latency = _recorder.Total,
                AbandonedRequests = summary.TotalAbandoned,
                SlowRequests = _slowRequests?.Entries ?? [],
                SlowRequestsNotKept = _slowRequests?.NotKept ?? 0,
            };
        }

        /// <summary>The run's clock, on a thread of its own (<see cref="RunClock"/>): closes each second on time, whatever the
        /// load's threads or the observer do. The duration stop is one of its instants too (not a timer of its own, which fires
        /// a little early or late): a 30 s run stops issuing at 30.0 s of its clock.</summary>
        private sealed class RunClock
        {
            public static Task RunAsync(RunSession session, Task load, long start, CpuSampler cpu)
            {
                var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                var thread = new Thread(() =>
                {
                    try
                    {
                        session.Tick(load, start, cpu);
                        done.SetResult();
                    }
                    catch (Exception ex) when (ex is not OutOfMemoryException)
                    {
                        done.SetException(ex);
                    }
                })
                {
                    IsBackground = true,
                    Name = RunClockThreadName,
                };
                thread.Start();
                return done.Task;
            }
        }

        private void Tick(Task load, long start, CpuSampler cpu)
        {
            // No spinning before the wait blocks (a spin's yields can lose the core for a time slice beside busy processes).
            using var loadEnded = new ManualResetEventSlim(initialState: false, spinCount: 0);
            load.ContinueWith(static (_, state) => ((ManualResetEventSlim)state!).Set(), loadEnded, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            TimeSpan? durationStop = DurationSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : null;
            while (true)
            {
                var boundary = TimeSpan.FromSeconds(_seconds.Count + 1);
                var next = durationStop is { } stopAt && stopAt < boundary ? stopAt : boundary;
                var wait = next - time.GetElapsedTime(start);
                if (wait > TimeSpan.Zero)
                {
                    if (WaitForLoad(loadEnded, wait))
                    {
                        return;
                    }

                    // A wait may end a little before its time: look at the clock again.
                    continue;
                }

                if (durationStop is { } due && time.GetElapsedTime(start) >= due)
                {
                    durationStop = null;
                    _stopIssuing.Set(fromClock: true, at: PlannedStop(start, due));
                }

                var now = time.GetElapsedTime(start);
                if (now < boundary)
                {
                    continue;
                }

                Close(boundary, OneSecond, cpu, start);
                CheckAutoStop();
            }
        }

        /// <summary>Waits <paramref name="wait"/> or until the load ends (true). On the system clock a plain kernel wait, with
        /// no timer: .NET's timers fire through the thread pool, which a busy load can starve. Another clock (a test's fake)
        /// is waited on through its own timer, whose callback only sets an event: no continuation, which would need the pool.</summary>
        private bool WaitForLoad(ManualResetEventSlim loadEnded, TimeSpan wait)
        {
            if (time == TimeProvider.System)
            {
                return loadEnded.Wait(wait);
            }

            // A callback of an earlier timer may still set it: the caller looks at the clock again after every wake-up.
            _due.Reset();
            using (time.CreateTimer(static due => ((ManualResetEventSlim)due!).Set(), _due, wait, Timeout.InfiniteTimeSpan))
            {
                WaitHandle.WaitAny([_due.WaitHandle, loadEnded.WaitHandle]);
            }

            return loadEnded.IsSet;
        }

        /// <summary>Closes the current second, with the client's health over it, and hands it to the observer.</summary>
        /// <param name="elapsed">The second's end on the run's clock.</param>
        /// <param name="duration">Its length (a whole second but for the last).</param>
        /// <param name="cpu">This process's CPU, sampled over the second.</param>
        /// <param name="clockStart">The run clock's start, to measure how late the second closed; null for the last, partial
        /// second, which closes when the run ends rather than at a boundary.</param>
        private void Close(TimeSpan elapsed, TimeSpan duration, CpuSampler cpu, long? clockStart)
        {
            // Its counts first: what lands while this process's CPU and the host's counters are read (files, and beside busy
            // processes a preemption or two) belongs to the next second. The lag is read after the counts were taken, so the
            // boundary plus the lag is never earlier than the instant they were.
            var second = _recorder.CloseSecondWithSlowest(_seconds.Count, elapsed, duration, 0, null, out var slowest);
            var clockLag = clockStart is { } start ? time.GetElapsedTime(start) - elapsed : TimeSpan.Zero;
            var processCpu = cpu.Sample();
            var health = Health?.Sample(processCpu, clockLag);
            // A closing second of a few milliseconds is no basis for a verdict, as it is no rate: over 6 ms one busy tick of the
            // machine reads 100 %. Its health is kept, unjudged. A busy machine is no limit of a second that waited on the service
            // (requests held for ten times the client's lag, or a stall); a sender behind its schedule is the client's limit too.
            if (health is not null)
            {
                health = health with
                {
                    Limits = duration < SecondSnapshot.ShortestJudged
                        ? ClientLimitKinds.None
                        : ClientLimits.WaitingOnTheService(health.Limits, health, second.LatencyP50Ms, second.OkRequests + second.Throttled + second.Errors, second.InFlight)
                            | Limits.JudgeSchedule(second.Issued, second.SentLate),
                };
            }

            second = second with { ClientCpuPercent = processCpu, Health = health };
            _seconds.Add(second);
            _handOff.Writer.TryWrite(new ClosedSecond(second, slowest));
        }

        /// <summary>Delivers the seconds to the observer in order, as fast as it takes them, and describes each second's slow
        /// requests on the way (here, not on the clock's thread: an SDK's diagnostics take a moment to write).</summary>
        private async Task PumpAsync()
        {
            // Where the clock started, before any second: the seconds this shard joined late are known only once the wait for
            // the common start ended, which a busy or suspended process may end long after the observer heard of the start.
            if (observer is not null)
            {
                try
                {
                    await observer.OnClockStartedAsync(_joinedLateSeconds, CancellationToken.None).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    _observerFailure = ex;
                    Stop($"an unexpected {ex.GetType().Name} while its seconds were recorded");
                }
            }

            await foreach (var (second, slowest) in _handOff.Reader.ReadAllAsync().ConfigureAwait(false))
            {
                var change = slowest is null || _slowRequests is null ? null : _slowRequests.Add(second.Index, slowest);
                if (observer is null || _observerFailure is not null)
                {
                    continue;
                }

                try
                {
                    await observer.OnSecondAsync(second, CancellationToken.None).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    // An observer that throws ends the run (as it always has); the seconds go on being measured until it stops.
                    _observerFailure = ex;
                    Stop($"an unexpected {ex.GetType().Name} while its seconds were recorded");
                    continue;
                }

                if (change is { IsEmpty: false })
                {
                    try
                    {
                        await observer.OnSlowRequestsAsync(change, CancellationToken.None).ConfigureAwait(false);
                    }
                    catch (Exception ex) when (ex is not OutOfMemoryException)
                    {
                        // Diagnostics are an aid, not a figure: failing to keep them never ends the run. The run's result still
                        // has them all, and its host saves what is missing at the end.
                    }
                }
            }
        }

        /// <summary>A closed second on its way to the observer, with its slowest requests still to describe.</summary>
        private readonly record struct ClosedSecond(SecondSnapshot Second, SlowRequestCandidate[]? Slowest);

        private void CheckAutoStop()
        {
            if (_stopIssuing.IsSet)
            {
                return;
            }

            CheckErrorsDominate();
            if (_stopIssuing.IsSet || plan.Stop.AutoStop is not { } rule || _seconds.Count < rule.WindowSeconds)
            {
                return;
            }

            var window = SecondTotals.Sum(_seconds.Skip(_seconds.Count - rule.WindowSeconds));
            var throttled = window.ThrottledFraction;
            var errors = window.ErrorFraction;
            var dropped = window.DroppedFraction;
            if (rule.ThrottledFractionAbove is { } maxThrottled && throttled > maxThrottled)
            {
                Stop(Invariant($"auto-stop: {throttled:P1} of responses throttled over the last {rule.WindowSeconds} s (limit {maxThrottled:P1})"), RunStatus.Stopped);
            }
            else if (rule.ErrorFractionAbove is { } maxErrors && errors > maxErrors)
            {
                Stop(Invariant($"auto-stop: {errors:P1} of responses failed over the last {rule.WindowSeconds} s (limit {maxErrors:P1})"), RunStatus.Stopped);
            }
            else if (rule.DroppedFractionAbove is { } maxDropped && dropped > maxDropped)
            {
                Stop(Invariant($"auto-stop: {dropped:P1} of the requests due were not sent over the last {rule.WindowSeconds} s (limit {maxDropped:P1})"), RunStatus.Stopped);
            }
        }

        /// <summary>
        /// The built-in rule, whatever the plan says: when over the last <see cref="ErrorWindowSeconds"/> full seconds
        /// errors (not throttles) are more than half of all responses, or no request succeeded and some failed, the
        /// target is down or refusing the client, and going on would only hammer it. The run ends Failed.
        /// </summary>
        private void CheckErrorsDominate()
        {
            if (_seconds.Count < ErrorWindowSeconds)
            {
                return;
            }

            var window = SecondTotals.Sum(_seconds.Skip(_seconds.Count - ErrorWindowSeconds));
            var ok = window.OkRequests;
            var errors = window.Errors;
            var share = window.ErrorFraction;
            if (errors == 0 || (ok > 0 && share <= 0.5))
            {
                return;
            }

            var reason = string.Create(CultureInfo.InvariantCulture, $"errors dominate: {share:P1} of responses failed over the last {ErrorWindowSeconds} s");
            _stopFailure = string.Create(CultureInfo.InvariantCulture,
                $"Errors dominate: {share:P1} of responses failed over the last {ErrorWindowSeconds} s ({errors:N0} failed, {ok:N0} succeeded), so the run stopped early; the first error: {_executor?.FirstError}");
            Stop(reason, RunStatus.Failed);
        }

        private void Stop(string reason, RunStatus? status = null)
        {
            if (Interlocked.CompareExchange(ref _stopReason, reason, null) is null)
            {
                _stopStatus = status;
            }

            // An auto-stop comes from the clock's thread: the load's continuations must not run there.
            _stopIssuing.Set(fromClock: Thread.CurrentThread.Name == RunClockThreadName);
        }

        private const string RunClockThreadName = "BenchEngine run clock";

        /// <summary>The timestamp a duration stop falls on: the run clock's start plus the duration.</summary>
        private long PlannedStop(long start, TimeSpan duration) => start + (long)(duration.TotalSeconds * time.TimestampFrequency);

        /// <summary>Whether the client was the limit where requests went unsent: the client-limited spans that overlap a second
        /// with requests due but not sent, never a span elsewhere in the run (a client pause in seconds 5–6 does not explain a
        /// service that stalled in second 7); when none does, that the client was not the limit there.</summary>
        private static string UnsentClientPart(RunSummary summary, IReadOnlyList<SecondSnapshot> seconds)
        {
            var unsent = seconds.Where(s => s.Dropped + s.NotStarted > 0).Select(s => s.Index).Order().ToList();
            if (unsent.Count == 0)
            {
                return "";
            }

            var overlapping = summary.ClientLimitedSpans
                .Where(span => unsent.Exists(i => i >= span.FirstSecond && i <= span.LastSecond))
                .ToList();
            return overlapping.Count > 0
                ? "; the client was the limit in " + string.Join("; ", overlapping.Take(3).Select(s => s.Describe()))
                : "; the client was not the limit in the seconds with requests due but not sent (" + DescribeSeconds(unsent) + ")";
        }

        /// <summary>"second 7", "seconds 7–8" or "seconds 3, 7–8, 12, …" (the first three runs of consecutive seconds).</summary>
        private static string DescribeSeconds(List<int> indexes)
        {
            var runs = new List<(int First, int Last)>();
            foreach (var index in indexes)
            {
                if (runs.Count > 0 && runs[^1].Last == index - 1)
                {
                    runs[^1] = (runs[^1].First, index);
                }
                else if (runs.Count == 0 || runs[^1].Last != index)
                {
                    runs.Add((index, index));
                }
            }

            var named = runs.Take(3).Select(r => r.First == r.Last ? Invariant($"{r.First}") : Invariant($"{r.First}–{r.Last}"));
            return (indexes.Count == 1 ? "second " : "seconds ") + string.Join(", ", named) + (runs.Count > 3 ? ", …" : "");
        }

        public void Dispose()
        {
            _stopIssuing.Dispose();
            _abort.Dispose();
            _due.Dispose();
        }

        private string DescribeNaturalEnd(WorkSource work, RunSummary summary)
        {
            // Never "reached 2,000 documents" when fewer landed: every document taken that did not land, or may not have,
            // is part of the reason.
            if (plan.DocumentLimit is { } limit && work.Taken >= limit)
            {
                var shortfall = Shortfall(summary, plan.Load.BatchSize);
                return shortfall.Count == 0 && summary.TotalOk >= limit
                    ? $"reached {limit:N0} documents"
                    : $"took all {limit:N0} documents: {summary.TotalOk:N0} landed" + string.Concat(shortfall.Select(part => ", " + part));
            }

            var end = DurationSeconds is { } duration && _stopIssuing.IsSet ? (_joinedLateSeconds == 0 ? $"ran for {duration.ToString(SecondsFormat, CultureInfo.CurrentCulture)} s"
                    : Invariant($"ran for {duration.ToString(SecondsFormat, CultureInfo.InvariantCulture)} s: it started {_joinedLateSeconds:N0} s after the run's common start and stopped at its common end"))
                : "the workload ended (end of file)";
            // What the stop cut off is said as well: documents given up, requests abandoned at the stop, requests not sent.
            var cutOff = Shortfall(summary, plan.Load.BatchSize);
            return cutOff.Count == 0 ? end : end + Invariant($"; {summary.TotalOk:N0} landed, ") + string.Join(", ", cutOff);
        }

        // What became of a document given up: refused by every 429, it did not land; a 5xx may have come after it landed.
        private const string GivenUpLanding = "after 429s only, none landed; after a 5xx, one may have";

        /// <summary>What became of the documents taken that are not known to have landed: "26 failed requests (12 of them
        /// unanswered or answered 408/5xx: each may or may not have landed)", "3 documents given up after their throttle retries
        /// ran out (after 429s only, none landed; after a 5xx, one may have)", "2 requests abandoned at the stop (each may or may not have landed)",
        /// "1 request not sent". Failed, abandoned and not sent are requests: with batches, each of up to
        /// <paramref name="batchSize"/> documents. Without <paramref name="landing"/>, only the failed and given up.</summary>
        private static List<string> Shortfall(RunSummary summary, int batchSize, bool landing = true)
        {
            var parts = new List<string>();
            if (summary.TotalErrors > 0)
            {
                var unknown = summary.ErrorsByStatus.Where(e => OperationOutcome.ErrorMayHaveLanded(e.Key)).Sum(e => e.Value);
                var notes = new List<string>();
                if (batchSize > 1)
                {
                    notes.Add(Invariant($"batches of up to {batchSize:N0} documents"));
                }

                if (unknown > 0)
                {
                    notes.Add((unknown == summary.TotalErrors ? "" : Invariant($"{unknown:N0} of them ")) + "unanswered or answered 408/5xx: each may or may not have landed");
                }

                parts.Add(Invariant($"{summary.TotalErrors:N0} failed {(summary.TotalErrors == 1 ? "request" : "requests")}")
                    + (notes.Count == 0 ? "" : $" ({string.Join("; ", notes)})"));
            }

            if (summary.TotalGivenUp > 0)
            {
                parts.Add(Invariant($"{summary.TotalGivenUp:N0} {(summary.TotalGivenUp == 1 ? "document" : "documents")} given up after their throttle retries ran out ({GivenUpLanding})"));
            }

            if (!landing)
            {
                return parts;
            }

            if (summary.TotalAbandoned > 0)
            {
                parts.Add(Invariant($"{summary.TotalAbandoned:N0} {(summary.TotalAbandoned == 1 ? "request" : "requests")} abandoned at the stop (each may or may not have landed)"));
            }

            if (summary.TotalNotStarted > 0)
            {
                parts.Add(Invariant($"{summary.TotalNotStarted:N0} {(summary.TotalNotStarted == 1 ? "request" : "requests")} not sent"));
            }

            return parts;
        }

        // Why a run whose writes did not all land failed: "26 failed requests (…), 3 documents given up after …; 974 landed;
        // the first error: …".
        private string NotLanded(RunSummary summary, string? firstError) =>
            string.Join(", ", Shortfall(summary, plan.Load.BatchSize, landing: false)) + Invariant($"; {summary.TotalOk:N0} landed")
            + (summary.TotalErrors > 0 ? $"; the first error: {firstError}" : "");

        private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
    }
}
