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

    public static OperationOutcome Throttled(int statusCode, double requestUnits, TimeSpan? retryAfter) =>
        new(OutcomeKind.Throttled, statusCode, 0, requestUnits, 0, retryAfter);

    public static OperationOutcome Failed(int statusCode, double requestUnits, string error) =>
        new(OutcomeKind.Error, statusCode, 0, requestUnits, 0, null, error);

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
