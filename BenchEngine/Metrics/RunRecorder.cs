using BenchEngine.Diagnostics;
using BenchEngine.Targets;

namespace BenchEngine.Metrics;

/// <summary>
/// Collects every response of a run into the current second and into the run-wide latency histogram.
/// </summary>
/// <remarks>
/// One lock guards the second's counts and latencies: an operation is counted in exactly one second, so
/// the per-second sums equal the run totals. Contention is negligible at the rates a single client reaches
/// (tens of thousands of responses per second), and the lock is held for a few array increments only.
/// Each latency is recorded once, into the second's histogram; the run-wide histogram is the merge of the
/// closed seconds, made outside the lock, so its percentiles are exactly those of every second's values
/// together.
/// </remarks>
/// <param name="keepSecondHistograms">Encode each second's latencies into its snapshot
/// (<see cref="SecondSnapshot.LatencyHistogram"/>): for a shard of a run spread over several machines.</param>
/// <param name="diagnostics">Which requests keep their diagnostics (each second's slowest, by reference, handed over when it
/// closes); null or off: none.</param>
public sealed class RunRecorder(bool keepSecondHistograms = false, DiagnosticsOptions? diagnostics = null)
{
    private readonly Lock _gate = new();
    private readonly SlowRequestSampler? _slowest = diagnostics is { IsOff: false } ? new SlowRequestSampler(diagnostics) : null;
    private readonly LatencyDistribution _total = new();
    private LatencyDistribution _second = new();
    private LatencyDistribution _spare = new();
    private readonly Dictionary<int, long> _errorsByStatus = [];
    private long _ok;
    private long _okRequests;
    private long _throttled;
    private long _errors;
    private double _requestUnits;
    private long _bytes;
    private long _givenUp;
    private long _inFlight;

    // Counted without the lock (one increment per request, from the load's own threads) and taken at each close.
    private long _dropped;
    private long _sentLate;
    private long _notStarted;

    // Under the lock with the outcomes, so that at every close issued − every final outcome = in flight, exactly.
    private long _issued;
    private long _givenUpRequests;
    private long _abandoned;

    /// <summary>Latency of every successful operation of the seconds closed so far.</summary>
    /// <remarks>Read it after the last <see cref="CloseSecond"/>: it is written there.</remarks>
    public LatencyDistribution Total => _total;

    public long InFlight
    {
        get
        {
            lock (_gate)
            {
                return _inFlight;
            }
        }
    }

    /// <summary>Where each response is also measured for a host's telemetry (<see cref="EngineTelemetry"/>); none by default.</summary>
    public EngineTelemetry? Telemetry { get; init; }

    /// <summary>A request was sent: it is in flight, and issued in the current second. Its end is one of
    /// <see cref="Record"/> (with <c>final</c>), <see cref="RecordGivenUp"/> or <see cref="RecordAbandoned"/>.</summary>
    public void OperationStarted()
    {
        lock (_gate)
        {
            _inFlight++;
            _issued++;
        }
    }

    /// <summary>The open loop did not send a request that was due (see <see cref="SecondSnapshot.Dropped"/>).</summary>
    public void RequestsDropped(long count = 1) => Interlocked.Add(ref _dropped, count);

    /// <summary>A request was sent later than <see cref="SecondSnapshot.LateAfter"/> after its intended start.</summary>
    public void RequestSentLate() => Interlocked.Increment(ref _sentLate);

    /// <summary>Requests due or taken when issuing stopped were never sent (see <see cref="SecondSnapshot.NotStarted"/>).</summary>
    public void RequestsNotStarted(long count = 1) => Interlocked.Add(ref _notStarted, count);

    /// <summary>A request in flight was cut off at the stop (see <see cref="SecondSnapshot.Abandoned"/>).</summary>
    public void RecordAbandoned()
    {
        lock (_gate)
        {
            _abandoned++;
            _inFlight--;
        }
    }

    /// <summary>Records the last, throttled response of a request whose retries ran out: a throttle, and
    /// <paramref name="documents"/> documents given up. It ends the request.</summary>
    /// <param name="outcome">The last response.</param>
    /// <param name="documents">The request's documents.</param>
    /// <param name="elapsed">From the request's intended start, for the slow-request diagnostics; none: not a candidate.</param>
    /// <param name="attempts">Requests sent for it.</param>
    public void RecordGivenUp(in OperationOutcome outcome, int documents, TimeSpan? elapsed = null, int attempts = 1)
    {
        lock (_gate)
        {
            _requestUnits += outcome.RequestUnits;
            _throttled++;
            _givenUp += documents;
            _givenUpRequests++;
            _inFlight--;
            if (elapsed is { } took)
            {
                _slowest?.Offer(took.Ticks, outcome, attempts);
            }
        }

        Telemetry?.RecordGivenUp(outcome, documents);
    }

    /// <summary>Records one response. <paramref name="latency"/> is given for the final, successful
    /// response of an operation (measured from its intended start, retries included); throttled
    /// responses that are retried count as throttled without a latency.</summary>
    /// <param name="outcome">The response.</param>
    /// <param name="latency">From the operation's intended start, for its final successful response.</param>
    /// <param name="final">The response ends its request (every response but a throttle that is retried).</param>
    /// <param name="elapsed">For a final response that failed (it has no <paramref name="latency"/>), how long it took from the
    /// intended start: only the slow-request diagnostics read it.</param>
    /// <param name="attempts">Requests sent for it, for the slow-request diagnostics.</param>
    public void Record(in OperationOutcome outcome, TimeSpan? latency = null, bool final = false, TimeSpan? elapsed = null, int attempts = 1)
    {
        lock (_gate)
        {
            if (final)
            {
                _inFlight--;

                // One comparison unless the request is among its second's slowest (SlowRequestSampler).
                if (_slowest is { } slowest && (latency ?? elapsed) is { } took)
                {
                    slowest.Offer(took.Ticks, outcome, attempts);
                }
            }

            _requestUnits += outcome.RequestUnits;
            switch (outcome.Kind)
            {
                case OutcomeKind.Ok:
                    _ok += outcome.Documents;
                    _okRequests++;
                    _bytes += outcome.Bytes;
                    if (latency is { } value)
                    {
                        _second.Record(value);
                    }

                    break;
                case OutcomeKind.Throttled:
                    _throttled++;
                    break;
                default:
                    _errors++;

                    // A batch that is not one transaction can fail with some of its documents landed: they count.
                    _ok += outcome.Documents;
                    _bytes += outcome.Bytes;
                    _errorsByStatus[outcome.StatusCode] = _errorsByStatus.GetValueOrDefault(outcome.StatusCode) + 1;
                    break;
            }
        }

        Telemetry?.Record(outcome, latency);
    }

    /// <summary>Whether anything was sent, answered, given up or left unsent since the last <see cref="CloseSecond"/>.</summary>
    public bool HasOpenCounts
    {
        get
        {
            lock (_gate)
            {
                return _ok != 0 || _okRequests != 0 || _throttled != 0 || _errors != 0 || _givenUp != 0 || _requestUnits != 0 || _bytes != 0
                    || _issued != 0 || _abandoned != 0 || Interlocked.Read(ref _dropped) != 0 || Interlocked.Read(ref _sentLate) != 0
                    || Interlocked.Read(ref _notStarted) != 0;
            }
        }
    }

    /// <summary>Closes the current second and starts the next one.</summary>
    /// <remarks>Called by one thread at a time (the run's clock), never concurrently with itself.</remarks>
    public SecondSnapshot CloseSecond(int index, TimeSpan elapsed, TimeSpan duration, double clientCpuPercent, ClientHealth? health = null) =>
        CloseSecondWithSlowest(index, elapsed, duration, clientCpuPercent, health, out _);

    /// <summary>Closes the current second and starts the next one; <paramref name="slowRequests"/> are the second's slowest
    /// requests to describe (null when none, or diagnostics are off).</summary>
    internal SecondSnapshot CloseSecondWithSlowest(int index, TimeSpan elapsed, TimeSpan duration, double clientCpuPercent, ClientHealth? health, out SlowRequestCandidate[]? slowRequests)
    {
        LatencyDistribution closed;
        SecondSnapshot snapshot;
        lock (_gate)
        {
            slowRequests = _slowest?.TakeSecond();
            closed = _second;
            _second = _spare;
            snapshot = new SecondSnapshot
            {
                Index = index,
                Elapsed = elapsed,
                Duration = duration,
                Ok = _ok,
                OkRequests = _okRequests,
                Throttled = _throttled,
                Errors = _errors,
                GivenUp = _givenUp,
                GivenUpRequests = _givenUpRequests,
                Abandoned = _abandoned,
                Issued = _issued,
                Dropped = Interlocked.Exchange(ref _dropped, 0),
                SentLate = Interlocked.Exchange(ref _sentLate, 0),
                NotStarted = Interlocked.Exchange(ref _notStarted, 0),
                ErrorsByStatus = _errorsByStatus.Count == 0 ? EmptyErrors : new Dictionary<int, long>(_errorsByStatus),
                RequestUnits = _requestUnits,
                Bytes = _bytes,
                InFlight = _inFlight,
                ClientCpuPercent = clientCpuPercent,
                Health = health,
            };
            _ok = _okRequests = _throttled = _errors = _bytes = _givenUp = _givenUpRequests = _abandoned = _issued = 0;
            _requestUnits = 0;
            _errorsByStatus.Clear();
        }

        // Read and merged outside the lock: the closed histogram is no longer written to. A second in which no operation
        // succeeded has no latency at all, rather than a latency of 0 ms.
        if (closed.Count > 0)
        {
            snapshot = snapshot with
            {
                LatencyP50Ms = closed.MillisecondsAtPercentile(50),
                LatencyP95Ms = closed.MillisecondsAtPercentile(95),
                LatencyP99Ms = closed.MillisecondsAtPercentile(99),
                LatencyMaxMs = closed.MaxMicroseconds / 1000.0,
                LatencyHistogram = keepSecondHistograms ? closed.Encode() : null,
            };
        }
        _total.Add(closed);
        closed.Reset();
        _spare = closed;
        return snapshot;
    }

    private static readonly IReadOnlyDictionary<int, long> EmptyErrors = new Dictionary<int, long>();
}
