using System.Globalization;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;

namespace BenchEngine.Targets;

/// <summary>
/// What the Azure Storage targets (tables, blobs, queues) share: a service client opened on a connection string with
/// every connection through the endpoint policy and the SDK's retries off (the engine retries throttles itself, so each
/// one is seen and counted), how the services say "slow down", and failure texts that never quote what the service sent.
/// </summary>
internal static class StorageRequests
{
    private const string RetryAfterMsHeader = "x-ms-retry-after-ms";

    private const string ErrorCodeHeader = "x-ms-error-code";

    /// <summary>Whether an Azure Storage status asks the client to slow down (retried and counted as a throttle) rather
    /// than a failure: the services say "server busy" with 503 and "operation timed out" with 500; a 429 counts too.</summary>
    public static bool IsThrottle(int status) => status is 503 or 500 or 429;

    /// <summary>The rule for container and queue names, as validation states it.</summary>
    public const string NameRule = "3–63 lowercase letters, digits and hyphens, starting and ending with a letter or digit, no two hyphens in a row.";

    /// <summary>Whether <paramref name="name"/> is a valid blob container or queue name (<see cref="NameRule"/>).</summary>
    public static bool IsValidContainerOrQueueName(string? name) =>
        name is { Length: >= 3 and <= 63 }
        && name.All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '-')
        && char.IsAsciiLetterOrDigit(name[0])
        && char.IsAsciiLetterOrDigit(name[^1])
        && !name.Contains("--", StringComparison.Ordinal);

    /// <summary>Opens a service client on the connection string in the secret <paramref name="secretName"/>, checks the
    /// endpoint it names against the policy, and returns it with the handler every connection goes through (the caller
    /// disposes it) and the endpoint for messages (scheme, host and path: no credential of any form).</summary>
    /// <param name="context">The run's secrets and endpoint policy.</param>
    /// <param name="secretName">The secret holding the connection string.</param>
    /// <param name="service">The service in words, for messages ("table", "blob", "queue").</param>
    /// <param name="create">Makes the client from the connection string and the transport handler.</param>
    /// <param name="uriOf">The client's endpoint.</param>
    /// <exception cref="TargetConfigurationException">The secret is missing or not a connection string, or the policy
    /// refuses its endpoint.</exception>
    public static (TClient Client, SocketsHttpHandler Handler, string Endpoint) Connect<TClient>(
        TargetContext context, string secretName, string service, Func<string, HttpMessageHandler, TClient> create, Func<TClient, Uri> uriOf)
    {
        var connectionString = context.RequireSecret(secretName);
        var handler = PolicedHttpHandler.Create(context.Endpoints, acceptAnyServerCertificate: false);
        try
        {
            TClient client;
            try
            {
                client = create(connectionString, handler);
            }
            catch (Exception ex) when (ex is FormatException or ArgumentException or InvalidOperationException)
            {
                // The parser's messages quote parts of the string, account key included: none of it is passed on.
                throw new TargetConfigurationException($"The secret '{secretName}' is not a valid storage connection string.");
            }

            var uri = uriOf(client);
            var endpoint = uri.GetComponents(UriComponents.SchemeAndServer | UriComponents.Path, UriFormat.UriEscaped);
            if (context.Endpoints.Check(uri) is { } refusal)
            {
                throw new TargetConfigurationException($"Cannot use the {service} endpoint {endpoint} of the secret '{secretName}': {refusal}");
            }

            return (client, handler, endpoint);
        }
        catch
        {
            handler.Dispose();
            throw;
        }
    }

    /// <summary>The SDK's client options with the policed transport, no retries and the application's id.</summary>
    public static TOptions Configure<TOptions>(TOptions options, HttpMessageHandler handler)
        where TOptions : ClientOptions
    {
        options.Transport = new HttpClientTransport(handler);

        // The engine retries throttled writes itself (honouring retry-after), so that each throttle is seen and counted.
        options.Retry.MaxRetries = 0;
        options.Diagnostics.ApplicationId = "BenchWeb";
        options.AddPolicy(AnswerPolicy.Instance, HttpPipelinePosition.PerRetry);
        return options;
    }

    /// <summary>Runs <paramref name="open"/> (creating or finding the table, container or queue), turning a failure into a
    /// <see cref="TargetConfigurationException"/> that names <paramref name="what"/> and the endpoint, never the service's words.</summary>
    /// <param name="what">What is opened, e.g. "table 'benchweb'".</param>
    /// <param name="endpoint">Where, without credentials.</param>
    /// <param name="open">The requests; it may throw its own <see cref="TargetConfigurationException"/>.</param>
    /// <param name="cancellationToken">Cancels opening.</param>
    public static async Task OpenAsync(string what, string endpoint, Func<CancellationToken, Task> open, CancellationToken cancellationToken)
    {
        try
        {
            // WaitAsync: whatever the SDK does with the token, cancelling ends the wait at once.
            await open(cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException ex) when (ex.Status == 0 && cancellationToken.IsCancellationRequested)
        {
            throw new OperationCanceledException($"Opening the {what} was cancelled.", ex, cancellationToken);
        }
        catch (RequestFailedException ex)
        {
            throw new TargetConfigurationException($"Cannot open {what} at {endpoint}: {Describe(ex)}", ex);
        }
        catch (Exception ex) when (ex is not (TargetConfigurationException or OutOfMemoryException)
            && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            throw new TargetConfigurationException($"Cannot open {what} at {endpoint}: {ErrorText.NoResponse(ex)}", ex);
        }
    }

    /// <summary>Sends one write and reads its outcome: <paramref name="send"/>'s own for a success; for a failure the status
    /// and the service's error code (a throttle with the service's retry-after); a request cut off by the run's stop
    /// throws <see cref="OperationCanceledException"/>, since it is abandoned, not failed.</summary>
    /// <param name="send">Sends the request and says what landed.</param>
    /// <param name="isThrottle">Which statuses ask the client to slow down.</param>
    /// <param name="charge">The request units a failed response reports (0 where the service reports none).</param>
    /// <param name="create">For a Create, the service's error code saying that what it writes is already there, and the
    /// documents and bytes it writes (<see cref="OperationOutcome.AlreadyExists"/>); null for a write that cannot find its
    /// documents there (an Upsert, a queue's message).</param>
    /// <param name="cancellationToken">The run's stop.</param>
    public static async Task<OperationOutcome> WriteAsync(
        Func<Task<OperationOutcome>> send,
        Func<int, bool> isThrottle,
        Func<Response, double> charge,
        (string ExistsCode, int Documents, long Bytes)? create,
        CancellationToken cancellationToken)
    {
        var answer = new Answer();
        try
        {
            using (HttpPipeline.CreateHttpMessagePropertiesScope(answer.Properties))
            {
                return await send().ConfigureAwait(false);
            }
        }
        catch (RequestFailedException ex) when (ex.Status == 0 && cancellationToken.IsCancellationRequested)
        {
            // The executor counts an abandoned request from this exception.
            throw new OperationCanceledException("The write was cancelled in flight.", ex, cancellationToken);
        }
        catch (RequestFailedException ex)
        {
            // The status and the service's error code only: the exception's message quotes the body the endpoint sent.
            return Refused(ex.Status, ex.ErrorCode, Describe(ex), ex.GetRawResponse(), ex, isThrottle, charge, create);
        }
        catch (Exception ex) when (answer.Response is { IsError: true } response && ex is not (OperationCanceledException or OutOfMemoryException))
        {
            // The service answered an error whose body the SDK could not read (an empty or cut-off body under a JSON or XML
            // content type: Azure.Storage's parser throws JsonException, XmlException…, not RequestFailedException). The
            // status is what the service said: it is counted exactly as the same status with a readable body.
            var code = response.Headers.TryGetValue(ErrorCodeHeader, out var header) ? header : null;
            return Refused(response.Status, code, ErrorText.Status(response.Status, code), response, response, isThrottle, charge, create);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // Azure.Core reports its own network timeout as a cancellation; the run did not cancel this request.
            return OperationOutcome.Failed(0, 0, "no response: the request timed out");
        }
    }

    /// <summary>The outcome of an error response: a throttle, a Create finding its documents already there, or an error.</summary>
    private static OperationOutcome Refused(
        int status,
        string? errorCode,
        string error,
        Response? response,
        object diagnostics,
        Func<int, bool> isThrottle,
        Func<Response, double> charge,
        (string ExistsCode, int Documents, long Bytes)? create)
    {
        var units = response is null ? 0 : charge(response);
        if (isThrottle(status))
        {
            return OperationOutcome.Throttled(status, units, RetryAfter(response)) with { Diagnostics = diagnostics };
        }

        if (status == 409 && create is { } created && string.Equals(errorCode, created.ExistsCode, StringComparison.Ordinal))
        {
            return OperationOutcome.AlreadyExists(status, units, created.Documents, created.Bytes, error) with { Diagnostics = diagnostics };
        }

        return OperationOutcome.Failed(status, units, error) with { Diagnostics = diagnostics };
    }

    /// <summary>The wait a throttled response asks for: <c>x-ms-retry-after-ms</c>, else <c>Retry-After</c> in whole seconds.</summary>
    public static TimeSpan? RetryAfter(Response? response)
    {
        if (response is null)
        {
            return null;
        }

        if (response.Headers.TryGetValue(RetryAfterMsHeader, out var ms) && OperationOutcome.RetryAfterMilliseconds(ms) is { } wait)
        {
            return wait;
        }

        return response.Headers.TryGetValue("Retry-After", out var seconds)
            && int.TryParse(seconds, NumberStyles.None, CultureInfo.InvariantCulture, out var wholeSeconds)
            && wholeSeconds <= OperationOutcome.MaxRetryAfter.TotalSeconds
                ? TimeSpan.FromSeconds(wholeSeconds)
                : null;
    }

    /// <summary>The headers that identify a request to the service's support and say when and where it was served.</summary>
    private static readonly string[] DiagnosticHeaders =
        ["x-ms-request-id", "x-ms-client-request-id", "x-ms-error-code", "x-ms-version", "Date", "Server", "x-ms-request-charge", "x-ms-retry-after-ms", "Retry-After"];

    /// <summary>A slow request to a Storage service as the Azure SDK's response (or its exception) tells it: status, the
    /// service's request id (<c>x-ms-request-id</c>, what Azure support asks for), the client request id, the error code,
    /// the service's version and time, and the engine's latency and attempts. The SDK's own retries are off, so each
    /// attempt is the engine's. No header of the request is read: its Authorization and signature stay out.</summary>
    /// <param name="request">The request, its outcome holding the SDK's response or exception.</param>
    /// <param name="service">The service in words ("table", "blob", "queue").</param>
    public static RequestDescription DescribeRequest(in SlowRequestFacts request, string service)
    {
        var (response, exception) = request.Outcome.Diagnostics switch
        {
            Response r => (r, (RequestFailedException?)null),
            RequestFailedException e => (e.GetRawResponse(), e),
            _ => (null, null),
        };
        var text = new System.Text.StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"outcome: {request.OutcomeText}");
        text.AppendLine(CultureInfo.InvariantCulture, $"latency: {request.LatencyText} (from the intended start, the engine's retries included; the Azure SDK times no request itself)");
        text.AppendLine(CultureInfo.InvariantCulture, $"attempts: {request.AttemptsText}; the SDK's own retries are off (0 retries inside the SDK)");
        text.AppendLine(CultureInfo.InvariantCulture, $"service: {service}");
        if (exception is not null)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"failure: {Describe(exception)}");
        }

        string? requestId = null;
        if (response is null)
        {
            text.AppendLine("no response arrived: the request has no request id.");
        }
        else
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"status: {response.Status}");
            foreach (var name in DiagnosticHeaders)
            {
                if (response.Headers.TryGetValue(name, out var value))
                {
                    text.AppendLine(CultureInfo.InvariantCulture, $"{name}: {value}");
                    if (name == "x-ms-request-id")
                    {
                        requestId = value;
                    }
                }
            }

            if (!response.Headers.TryGetValue("x-ms-client-request-id", out _) && response.ClientRequestId is { Length: > 0 } clientRequestId)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"x-ms-client-request-id: {clientRequestId}");
            }
        }

        var summary = $"{request.OutcomeText} · {request.LatencyText} · {request.AttemptsText} · request id {requestId ?? "none"}";
        return new RequestDescription(summary, text.ToString());
    }

    /// <summary>"409 BlobAlreadyExists", or why no response arrived.</summary>
    public static string Describe(RequestFailedException ex) =>
        ex.Status == 0 ? ErrorText.NoResponse(ex) : ErrorText.Status(ex.Status, ex.ErrorCode);

    /// <summary>The last response one write's requests received, whatever the SDK makes of it afterwards; set by
    /// <see cref="AnswerPolicy"/> on the requests made in the scope of <see cref="Properties"/>.</summary>
    private sealed class Answer
    {
        public const string Property = "BenchWeb.Answer";

        public Answer() => Properties = new Dictionary<string, object?>(1) { [Property] = this };

        /// <summary>The message properties that tie a request to this answer (<see cref="HttpPipeline.CreateHttpMessagePropertiesScope"/>).</summary>
        public IDictionary<string, object?> Properties { get; }

        public Response? Response { get; set; }
    }

    /// <summary>Keeps each attempt's response in its write's <see cref="Answer"/>, before the SDK reads its body.</summary>
    private sealed class AnswerPolicy : HttpPipelineSynchronousPolicy
    {
        public static AnswerPolicy Instance { get; } = new();

        public override void OnReceivedResponse(HttpMessage message)
        {
            if (message.TryGetProperty(Answer.Property, out var value) && value is Answer answer)
            {
                answer.Response = message.Response;
            }
        }
    }
}
