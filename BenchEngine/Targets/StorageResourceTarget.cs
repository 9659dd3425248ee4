using System.Buffers;
using Azure;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// A Storage service written one document per request into one container or queue (Blob and Queue Storage), the body
/// the document's JSON. Opening goes through <see cref="StorageRequests"/> (the endpoint policy, the SDK's retries off so
/// that every throttle is counted, failure texts that never quote the service); a subclass says how to reach its
/// resource, open it, send one document and count what it holds.
/// </summary>
/// <typeparam name="TClient">The SDK's client of the container or queue.</typeparam>
internal abstract class StorageResourceTarget<TClient>(TargetKind kind, TargetContext context, string secretName) : IInsertTarget
    where TClient : class
{
    private TClient? _client;
    private SocketsHttpHandler? _handler;

    public string Description { get; } = kind.DisplayName();

    public bool IsModel => false;

    public double? ProvisionedRequestUnits => null;

    /// <summary>Storage charges by operation and capacity, not in request units.</summary>
    public bool ReportsRequestUnits => false;

    /// <summary>The service in words, for messages ("blob", "queue").</summary>
    protected abstract string Service { get; }

    /// <summary>What is opened, for messages ("container 'benchweb'").</summary>
    protected abstract string Resource { get; }

    /// <summary>The service's error code refusing a Create because its item is already there (with 409); null when a
    /// Create cannot find one there (a queue's message is always new).</summary>
    protected virtual string? ExistsCode => null;

    /// <summary>The document's JSON, which is what is sent.</summary>
    public int MeasureRequestBytes(Document document) => DocumentJson.Measure(document);

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var ((client, _), handler, endpoint) = StorageRequests.Connect(context, secretName, Service, Connect, c => c.ServiceUri);
        _handler = handler;
        await StorageRequests.OpenAsync(Resource, endpoint, ct => OpenAsync(client, ct), cancellationToken).ConfigureAwait(false);
        _client = client;
    }

    public Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var client = _client ?? throw new InvalidOperationException("InitializeAsync first.");
        if (documents.Count != 1)
        {
            // Validation keeps the batch size at 1; nothing is sent for anything else.
            return Task.FromResult(OperationOutcome.Failed(0, 0, $"{Description} takes one document per request; this request has {documents.Count}."));
        }

        var document = documents[0];
        if (Refuse(document) is { } refusal)
        {
            return Task.FromResult(OperationOutcome.Failed(0, 0, refusal));
        }

        var json = new ArrayBufferWriter<byte>(1024);
        DocumentJson.Write(json, document);
        return StorageRequests.WriteAsync(
            async () =>
            {
                var response = await SendAsync(client, document, json.WrittenMemory, operation, cancellationToken).ConfigureAwait(false);
                return OperationOutcome.Ok(response.Status, 1, 0, json.WrittenCount) with { Diagnostics = response };
            },
            StorageRequests.IsThrottle,
            _ => 0,
            operation == WriteOperation.Create && ExistsCode is { } exists ? (exists, 1, json.WrittenCount) : null,
            cancellationToken);
    }

    /// <summary>The request ids, status and timings the SDK's response kept (<see cref="StorageRequests.DescribeRequest"/>).</summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request) => StorageRequests.DescribeRequest(request, Service);

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        CountAsync(_client ?? throw new InvalidOperationException("InitializeAsync first."), cancellationToken);

    public ValueTask DisposeAsync()
    {
        _handler?.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>The resource's client and its service's endpoint, from the connection string, sending through
    /// <paramref name="transport"/> (see <see cref="StorageRequests.Configure"/>).</summary>
    protected abstract (TClient Client, Uri ServiceUri) Connect(string connectionString, HttpMessageHandler transport);

    /// <summary>Creates the resource when the plan says so, or fails naming it when it is missing.</summary>
    protected abstract Task OpenAsync(TClient client, CancellationToken cancellationToken);

    /// <summary>Why <paramref name="document"/> cannot be sent at all (nothing is sent then); null when it can.</summary>
    protected virtual string? Refuse(Document document) => null;

    /// <summary>Sends one document, its JSON <paramref name="json"/>; the service's refusal throws <see cref="RequestFailedException"/>.</summary>
    protected abstract Task<Response> SendAsync(TClient client, Document document, ReadOnlyMemory<byte> json, WriteOperation operation, CancellationToken cancellationToken);

    /// <summary>What the resource holds now.</summary>
    protected abstract Task<long> CountAsync(TClient client, CancellationToken cancellationToken);
}
