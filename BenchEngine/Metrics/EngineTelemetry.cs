using System.Diagnostics.Metrics;
using BenchEngine.Targets;

namespace BenchEngine.Metrics;

/// <summary>
/// The engine's responses as <see cref="System.Diagnostics.Metrics"/> instruments of the meter <see cref="MeterName"/>, for a
/// host to export (the dashboard over OTLP) or a tool to watch (<c>dotnet-counters monitor --counters BenchEngine</c>).
/// </summary>
/// <remarks>
/// The figures are the <see cref="RunRecorder"/>'s, recorded where it records them, so their sums are the run's totals:
/// every throttled response counts (retried or not), errors count the documents that landed anyway, and the latency is
/// the one the summary's percentiles are made of (from the operation's intended start, retries included). One instance
/// per run holds its tags, made once: a measurement allocates nothing. With no listener every instrument is disabled and
/// a response costs a few field reads.
/// </remarks>
public sealed class EngineTelemetry
{
    public const string MeterName = "BenchEngine";

    /// <summary>Documents that landed (successful requests, and those of a non-transactional batch that failed in part).</summary>
    public const string DocumentsInsertedName = "benchengine.documents.inserted";

    public const string RequestsOkName = "benchengine.requests.ok";

    /// <summary>Every throttled response, retried or not, as the summary counts them.</summary>
    public const string ThrottledName = "benchengine.responses.throttled";

    public const string ErrorsName = "benchengine.requests.errors";

    /// <summary>Documents still throttled when their request's retries ran out.</summary>
    public const string DocumentsGivenUpName = "benchengine.documents.given_up";

    public const string RequestUnitsName = "benchengine.request_units";

    /// <summary>Bytes of the documents that landed, as the target measures a request.</summary>
    public const string BytesName = "benchengine.bytes";

    /// <summary>Latency of each successful operation, in milliseconds from its intended start.</summary>
    public const string OperationDurationName = "benchengine.operation.duration";

    public const string RunIdTag = "benchengine.run.id";

    public const string AgentTag = "benchengine.agent";

    public const string ShardIndexTag = "benchengine.shard.index";

    public const string TargetKindTag = "benchengine.target.kind";

    /// <summary>Bucket boundaries of <see cref="OperationDurationName"/>, in ms: finest where service latencies gather
    /// (a few to a few tens of ms), up to 60 s, beyond which an operation is a timeout whatever the target.</summary>
    public static IReadOnlyList<double> LatencyBucketsMs { get; } =
        [1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 250, 500, 750, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000];

    private static readonly Meter Meter = new(MeterName, typeof(EngineTelemetry).Assembly.GetName().Version?.ToString());

    private static readonly Counter<long> DocumentsInserted = Meter.CreateCounter<long>(DocumentsInsertedName, "{document}", "Documents that landed");

    private static readonly Counter<long> RequestsOk = Meter.CreateCounter<long>(RequestsOkName, "{request}", "Requests that succeeded");

    private static readonly Counter<long> Throttled = Meter.CreateCounter<long>(ThrottledName, "{response}", "Throttled responses, retried or not");

    private static readonly Counter<long> Errors = Meter.CreateCounter<long>(ErrorsName, "{request}", "Requests that failed (not throttles)");

    private static readonly Counter<long> DocumentsGivenUp = Meter.CreateCounter<long>(DocumentsGivenUpName, "{document}", "Documents still throttled when their retries ran out");

    private static readonly Counter<double> RequestUnits = Meter.CreateCounter<double>(RequestUnitsName, "{RU}", "Request units charged, throttled responses included");

    private static readonly Counter<long> Bytes = Meter.CreateCounter<long>(BytesName, "By", "Bytes of the documents that landed");

    private static readonly Histogram<double> OperationDuration = Meter.CreateHistogram(
        OperationDurationName,
        "ms",
        "Latency of successful operations from their intended start, retries included",
        tags: null,
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBucketsMs });

    private readonly KeyValuePair<string, object?>[] _tags;

    /// <param name="tags">The host's tags for every measurement; none when the host gives none.</param>
    public EngineTelemetry(EngineTelemetryTags? tags)
    {
        _tags = tags is null
            ? []
            :
            [
                new(RunIdTag, tags.RunId),
                new(AgentTag, tags.Agent),
                new(ShardIndexTag, tags.ShardIndex),
                new(TargetKindTag, tags.TargetKind),
            ];
    }

    /// <summary>One response, as <see cref="RunRecorder.Record"/> counts it.</summary>
    internal void Record(in OperationOutcome outcome, TimeSpan? latency)
    {
        ReadOnlySpan<KeyValuePair<string, object?>> tags = _tags;
        if (RequestUnits.Enabled)
        {
            RequestUnits.Add(outcome.RequestUnits, tags);
        }

        switch (outcome.Kind)
        {
            case OutcomeKind.Ok:
                AddLanded(outcome, tags);
                if (RequestsOk.Enabled)
                {
                    RequestsOk.Add(1, tags);
                }

                if (latency is { } value && OperationDuration.Enabled)
                {
                    OperationDuration.Record(value.TotalMilliseconds, tags);
                }

                break;
            case OutcomeKind.Throttled:
                if (Throttled.Enabled)
                {
                    Throttled.Add(1, tags);
                }

                break;
            default:
                if (Errors.Enabled)
                {
                    Errors.Add(1, tags);
                }

                AddLanded(outcome, tags);
                break;
        }
    }

    /// <summary>The last, throttled response of a request whose retries ran out, as <see cref="RunRecorder.RecordGivenUp"/> counts it.</summary>
    internal void RecordGivenUp(in OperationOutcome outcome, int documents)
    {
        ReadOnlySpan<KeyValuePair<string, object?>> tags = _tags;
        if (RequestUnits.Enabled)
        {
            RequestUnits.Add(outcome.RequestUnits, tags);
        }

        if (Throttled.Enabled)
        {
            Throttled.Add(1, tags);
        }

        if (DocumentsGivenUp.Enabled)
        {
            DocumentsGivenUp.Add(documents, tags);
        }
    }

    private static void AddLanded(in OperationOutcome outcome, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        if (DocumentsInserted.Enabled && outcome.Documents != 0)
        {
            DocumentsInserted.Add(outcome.Documents, tags);
        }

        if (Bytes.Enabled && outcome.Bytes != 0)
        {
            Bytes.Add(outcome.Bytes, tags);
        }
    }
}
