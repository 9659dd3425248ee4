namespace BenchEngine.Targets;

/// <summary>The response to one request (a point write, or a whole batch).</summary>
/// <param name="Kind">Ok, throttled or another error; decided by the target, which knows its service's codes.</param>
/// <param name="StatusCode">HTTP status (0 when no response arrived).</param>
/// <param name="Documents">Documents that landed with this response: all of them when <see cref="OutcomeKind.Ok"/>; for an
/// error, those of a batch that landed anyway (a pipeline whose writes land or fail one by one), else 0.</param>
/// <param name="RequestUnits">RU charged, as the service reported it (0 where it reports none).</param>
/// <param name="Bytes">Bytes of the documents that landed.</param>
/// <param name="RetryAfter">The service's <c>retry-after</c>, when throttled.</param>
/// <param name="Error">A short description of a failure, for the run's failure reason.</param>
/// <param name="Diagnostics">What the target can describe the request from, should it turn out to be one of the run's slowest
/// (<see cref="IInsertTarget.DescribeRequest"/>): an object the request made anyway (the SDK's response or exception), never
/// one made for this. Only a reference: nothing is formatted unless the request is kept.</param>
public readonly record struct OperationOutcome(
    OutcomeKind Kind,
    int StatusCode,
    int Documents,
    double RequestUnits,
    long Bytes,
    TimeSpan? RetryAfter = null,
    string? Error = null,
    object? Diagnostics = null)
{
    public static OperationOutcome Ok(int statusCode, int documents, double requestUnits, long bytes) =>
        new(OutcomeKind.Ok, statusCode, documents, requestUnits, bytes);

    /// <summary>A throttled answer. A <paramref name="retryAfter"/> below zero or above <see cref="MaxRetryAfter"/> is no hint
    /// a client can honour (a day's wait, or a value no timer takes): the request backs off as if none came.</summary>
    public static OperationOutcome Throttled(int statusCode, double requestUnits, TimeSpan? retryAfter) =>
        new(OutcomeKind.Throttled, statusCode, 0, requestUnits, 0, retryAfter is { } wait && (wait < TimeSpan.Zero || wait > MaxRetryAfter) ? null : retryAfter);

    /// <summary>The longest retry-after honoured: a day.</summary>
    public static readonly TimeSpan MaxRetryAfter = TimeSpan.FromDays(1);

    /// <summary>A retry-after given in milliseconds (<c>x-ms-retry-after-ms</c>) as a wait, or null when it is none a client can
    /// honour: not a number, negative, or above <see cref="MaxRetryAfter"/>.</summary>
    public static TimeSpan? RetryAfterMilliseconds(string? header) =>
        double.TryParse(header, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var ms)
        && ms >= 0 && ms <= MaxRetryAfter.TotalMilliseconds
            ? TimeSpan.FromMilliseconds(ms)
            : null;

    /// <summary>Whether a failed request may have landed all the same: it got no answer (status 0: a connection closed, a
    /// timeout), or a 408 or 5xx, which say it failed, not that the service did nothing. A 4xx other than 408 refused it.</summary>
    public static bool ErrorMayHaveLanded(int statusCode) => statusCode is 0 or 408 or >= 500;

    public static OperationOutcome Failed(int statusCode, double requestUnits, string error) =>
        new(OutcomeKind.Error, statusCode, 0, requestUnits, 0, null, error);

    /// <summary>A Create refused because what it writes is already there (a 409 "already exists"): an error, which names the
    /// <paramref name="documents"/> of <paramref name="bytes"/> bytes it writes, should an earlier attempt of the same request
    /// have landed them (<see cref="AfterAmbiguousAttempt"/>).</summary>
    public static OperationOutcome AlreadyExists(int statusCode, double requestUnits, int documents, long bytes, string error) =>
        Failed(statusCode, requestUnits, error) with { ExistingDocuments = documents, ExistingBytes = bytes };

    /// <summary>For an <see cref="AlreadyExists"/> error, the documents the Create writes (all of a transaction's, which
    /// lands whole or not at all); 0 for any other outcome.</summary>
    public int ExistingDocuments { get; init; }

    /// <summary>For an <see cref="AlreadyExists"/> error, the bytes of <see cref="ExistingDocuments"/>.</summary>
    public long ExistingBytes { get; init; }

    /// <summary>Whether the request may have landed although it is retried as a throttle: the service answered 5xx ("operation
    /// timed out", "server busy"), which says it failed, not that it did nothing; a 429 refuses the request before any work.</summary>
    public bool MayHaveLanded => Kind == OutcomeKind.Throttled && StatusCode >= 500;

    /// <summary>This outcome as the answer to a retry of a request an earlier attempt of which <see cref="MayHaveLanded"/>: a
    /// Create's "already exists" is then that attempt's documents found where it put them, so they count as landed (ok);
    /// any other outcome is itself.</summary>
    public OperationOutcome AfterAmbiguousAttempt() => ExistingDocuments > 0
        ? Ok(StatusCode, ExistingDocuments, RequestUnits, ExistingBytes) with { Diagnostics = Diagnostics }
        : this;

    /// <summary>A batch that is not one transaction (a Redis pipeline) and partly failed: an error, which still counts the
    /// <paramref name="documents"/> that landed, of <paramref name="bytes"/> bytes.</summary>
    public static OperationOutcome PartlyFailed(int statusCode, int documents, long bytes, string error) =>
        new(OutcomeKind.Error, statusCode, documents, 0, bytes, null, error);
}

public enum OutcomeKind
{
    Ok,
    Throttled,
    Error,
}
