using System.Buffers;
using System.Net;
using System.Runtime.InteropServices;
using System.Text.Json;
using BenchEngine.Workloads;
using Microsoft.Azure.Cosmos;

namespace BenchEngine.Targets;

/// <summary>Azure Cosmos DB for NoSQL through the stream API: no exceptions for service errors, RU read
/// from every response, and the SDK's own 429 retries turned off so every throttle is seen and counted.</summary>
internal sealed class CosmosTarget : IInsertTarget
{
    private readonly CosmosOptions _options;
    private readonly TargetContext _context;
    private readonly string _partitionKeyProperty;
    private readonly ItemRequestOptions _requestOptions;
    private CosmosClient? _client;
    private SocketsHttpHandler? _handler;
    private Container? _container;

    public CosmosTarget(CosmosOptions options, TargetContext context)
    {
        _options = options;
        _context = context;
        _partitionKeyProperty = options.PartitionKeyPath.TrimStart('/');
        _requestOptions = new ItemRequestOptions { EnableContentResponseOnWrite = options.ContentResponseOnWrite };
        Description = $"{TargetKind.CosmosSql.DisplayName()} · {options.ConnectionMode}{(options.Bulk ? " · bulk" : "")}";
    }

    public string Description { get; }

    public bool IsModel => false;

    public double? ProvisionedRequestUnits { get; private set; }

    public bool ProvisionedAutoscale { get; private set; }

    /// <summary>The body as sent: with the partition-key property appended when the document has no field of that name.</summary>
    public int MeasureRequestBytes(Document document) => DocumentJson.Measure(document, _partitionKeyProperty);

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var key = _context.RequireSecret(_options.KeySecret);
        if (!IsBase64(key))
        {
            // The SDK would throw a FormatException from deep inside; the key itself is never part of a message.
            throw new TargetConfigurationException($"The secret '{_options.KeySecret}' is not a Cosmos DB account key: a key is base64 text (the account's primary or secondary key).");
        }

        if (!Uri.TryCreate(_options.Endpoint, UriKind.Absolute, out var endpoint))
        {
            throw new TargetConfigurationException("The Cosmos DB endpoint is not an absolute URL.");
        }

        var where = endpoint.GetLeftPart(UriPartial.Path);
        if (_context.Endpoints.Check(endpoint) is { } refusal)
        {
            throw new TargetConfigurationException($"Cannot use the endpoint {where}: {refusal}");
        }

        if (_options.ConnectionMode == CosmosConnectionMode.Direct && !_context.Endpoints.AllowsDirectMode)
        {
            throw new TargetConfigurationException("Direct mode is not allowed here: it connects to addresses the service names, which the endpoint policy cannot check. Use Gateway mode.");
        }

        // Every HTTP connection the SDK opens (account metadata, regional endpoints, Gateway writes) goes through the policy.
        var handler = PolicedHttpHandler.Create(_context.Endpoints, _options.AcceptAnyServerCertificate, _options.GatewayMaxConnections);
        _handler = handler;
        var clientOptions = new CosmosClientOptions
        {
            ConnectionMode = _options.ConnectionMode == CosmosConnectionMode.Direct ? ConnectionMode.Direct : ConnectionMode.Gateway,
            LimitToEndpoint = _options.LimitToEndpoint,
            AllowBulkExecution = _options.Bulk,

            // With a factory the SDK leaves the connection limit to the handler (GatewayMaxConnections is set there).
            HttpClientFactory = () => new HttpClient(handler, disposeHandler: false),
            EnableContentResponseOnWrite = _options.ContentResponseOnWrite,
            // The engine retries throttled writes itself, honouring retry-after, so that each 429 is counted.
            MaxRetryAttemptsOnRateLimitedRequests = 0,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.Zero,
            ConsistencyLevel = _options.ConsistencyLevel is { } level ? (ConsistencyLevel)(int)level : null,
            ApplicationName = "BenchWeb",
        };
        if (_options.AcceptAnyServerCertificate)
        {
            // For Direct mode's TCP connections; the handler above accepts any certificate for HTTP.
            clientOptions.ServerCertificateCustomValidationCallback = static (_, _, _) => true;
        }

        try
        {
            _client = new CosmosClient(_options.Endpoint, key, clientOptions);

            // The SDK does not give up its first requests (the account's metadata) on cancellation, and retries them
            // for half a minute against an endpoint that never answers: the wait ends on cancellation regardless, and
            // disposing the client ends what is left.
            if (_options.CreateIfMissing)
            {
                Database database = await _client.CreateDatabaseIfNotExistsAsync(_options.Database, cancellationToken: cancellationToken)
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
                _container = await database.CreateContainerIfNotExistsAsync(BuildContainerProperties(), BuildThroughput(), cancellationToken: cancellationToken)
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            else
            {
                _container = _client.GetContainer(_options.Database, _options.Container);
                using var response = await _container.ReadContainerStreamAsync(cancellationToken: cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
                if (!response.IsSuccessStatusCode)
                {
                    throw new TargetConfigurationException(response.StatusCode == HttpStatusCode.NotFound
                        ? $"Container '{_options.Database}/{_options.Container}' does not exist at {where} and creating it is off."
                        : $"Cannot open Cosmos DB container '{_options.Database}/{_options.Container}' at {where}: {ErrorText.Status(response.StatusCode, SubStatus(response.Headers))}");
                }
            }
        }
        catch (Exception ex) when (ex is not (TargetConfigurationException or OutOfMemoryException)
            && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            throw new TargetConfigurationException($"Cannot open Cosmos DB container '{_options.Database}/{_options.Container}' at {where}: {Describe(ex)}", ex);
        }

        (ProvisionedRequestUnits, ProvisionedAutoscale) = await ReadThroughputAsync(cancellationToken).ConfigureAwait(false);
    }

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var container = _container ?? throw new InvalidOperationException("InitializeAsync first.");
        var document = documents[0];
        var body = new ArrayBufferWriter<byte>(1024);
        DocumentJson.Write(body, document, _partitionKeyProperty);
        // The SDK reads the body from the writer's own array: no copy of it per write.
        using var stream = MemoryMarshal.TryGetArray(body.WrittenMemory, out var written)
            ? new MemoryStream(written.Array!, written.Offset, written.Count, writable: false)
            : new MemoryStream(body.WrittenMemory.ToArray(), writable: false);
        var partitionKey = new PartitionKey(document.PartitionKey);
        try
        {
            var response = operation == WriteOperation.Upsert
                ? await container.UpsertItemStreamAsync(stream, partitionKey, _requestOptions, cancellationToken).ConfigureAwait(false)
                : await container.CreateItemStreamAsync(stream, partitionKey, _requestOptions, cancellationToken).ConfigureAwait(false);

            // The response itself is not disposed: that would end its trace, which is the SDK's diagnostics of the request,
            // wanted later should the request be one of the run's slowest (the outcome keeps a reference, nothing more). Its
            // body, the part holding a buffer, is released now; the rest is garbage like any response.
            response.Content?.Dispose();
            var status = (int)response.StatusCode;
            var charge = response.Headers.RequestCharge;
            if (response.IsSuccessStatusCode)
            {
                return OperationOutcome.Ok(status, 1, charge, body.WrittenCount) with { Diagnostics = response };
            }

            // Status and sub-status only: the response's error message quotes the body the endpoint sent.
            return (response.StatusCode == HttpStatusCode.TooManyRequests
                ? OperationOutcome.Throttled(status, charge, ReadRetryAfter(response.Headers))
                : OperationOutcome.Failed(status, charge, ErrorText.Status(response.StatusCode, SubStatus(response.Headers)))) with { Diagnostics = response };
        }
        catch (Exception ex) when (ex is CosmosException or HttpRequestException && cancellationToken.IsCancellationRequested)
        {
            // A request cut off by the run's stop is abandoned, not failed: the executor counts it from this exception.
            throw new OperationCanceledException("The write was cancelled in flight.", ex, cancellationToken);
        }
        catch (CosmosException ex)
        {
            return (ex.StatusCode == HttpStatusCode.TooManyRequests
                ? OperationOutcome.Throttled(429, ex.RequestCharge, ex.RetryAfter)
                : OperationOutcome.Failed((int)ex.StatusCode, ex.RequestCharge, ErrorText.Status(ex.StatusCode, ex.SubStatusCode))) with { Diagnostics = ex };
        }
        catch (HttpRequestException ex)
        {
            return OperationOutcome.Failed(0, 0, ErrorText.NoResponse(ex));
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // The SDK's own request timeout; the run did not cancel this request.
            return OperationOutcome.Failed(0, 0, "no response: the request timed out");
        }
    }

    /// <summary>The SDK's diagnostics of the request (<see cref="CosmosDiagnostics.ToString"/>: regions contacted, retries,
    /// the transport's timeline, Gateway or Direct), read from the response or exception the write kept, under a header
    /// with the engine's own figures.</summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request)
    {
        var diagnostics = request.Outcome.Diagnostics switch
        {
            ResponseMessage response => response.Diagnostics,
            CosmosException exception => exception.Diagnostics,
            _ => null,
        };
        var mode = _options.ConnectionMode == CosmosConnectionMode.Direct ? "Direct" : "Gateway";
        if (diagnostics is null)
        {
            return RequestDescription.Plain(request, $"The SDK gave no diagnostics for this request (no response or exception of its own; {mode} mode).");
        }

        var culture = System.Globalization.CultureInfo.InvariantCulture;
        var sdkElapsed = diagnostics.GetClientElapsedTime().TotalMilliseconds.ToString("N1", culture);
        var regions = diagnostics.GetContactedRegions() is { Count: > 0 } contacted
            ? string.Join(", ", contacted.Select(r => r.regionName).Distinct(StringComparer.Ordinal))
            : "none named";
        var failed = diagnostics.GetFailedRequestCount();
        var summary = $"{request.OutcomeText} · {request.LatencyText} · SDK {sdkElapsed} ms · {mode} · regions: {regions} · {failed} failed in the SDK · {request.AttemptsText}";
        var text = $"""
            outcome: {request.OutcomeText}
            latency: {request.LatencyText} (from the intended start, the engine's retries included); the SDK's own: {sdkElapsed} ms
            attempts: {request.AttemptsText}
            connection mode: {mode}
            regions contacted: {regions}
            requests that failed inside the SDK: {failed}
            the SDK's diagnostics (CosmosDiagnostics):
            {diagnostics}
            """;
        return new RequestDescription(summary, text);
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        var container = _container ?? throw new InvalidOperationException("InitializeAsync first.");

        // A read feed rather than SELECT VALUE COUNT(1): aggregates need a query plan, which not every
        // endpoint (emulators, local servers) serves.
        using var feed = container.GetItemQueryStreamIterator(queryText: null, requestOptions: new QueryRequestOptions { MaxItemCount = 1000 });
        long count = 0;
        while (feed.HasMoreResults)
        {
            using var page = await feed.ReadNextAsync(cancellationToken).ConfigureAwait(false);
            page.EnsureSuccessStatusCode();
            using var json = await JsonDocument.ParseAsync(page.Content, cancellationToken: cancellationToken).ConfigureAwait(false);
            count += json.RootElement.GetProperty("_count").GetInt64();
        }

        return count;
    }

    public ValueTask DisposeAsync()
    {
        _client?.Dispose();
        _handler?.Dispose();
        return ValueTask.CompletedTask;
    }

    private ContainerProperties BuildContainerProperties()
    {
        var properties = new ContainerProperties(_options.Container, _options.PartitionKeyPath);
        switch (_options.Indexing)
        {
            case IndexingMode.None:
                properties.IndexingPolicy = new IndexingPolicy { Automatic = false, IndexingMode = Microsoft.Azure.Cosmos.IndexingMode.None };
                break;
            case IndexingMode.ExcludedPaths:
                properties.IndexingPolicy.IncludedPaths.Add(new IncludedPath { Path = "/*" });
                foreach (var path in _options.ExcludedPaths)
                {
                    properties.IndexingPolicy.ExcludedPaths.Add(new ExcludedPath { Path = path });
                }

                break;
        }

        return properties;
    }

    private ThroughputProperties? BuildThroughput() => _options.RequestUnits switch
    {
        null => null,
        { } ru when _options.Throughput == ThroughputMode.Autoscale => ThroughputProperties.CreateAutoscaleThroughput(ru),
        { } ru => ThroughputProperties.CreateManualThroughput(ru),
    };

    private async Task<(double? RequestUnits, bool Autoscale)> ReadThroughputAsync(CancellationToken cancellationToken)
    {
        try
        {
            var response = await _container!.ReadThroughputAsync(new RequestOptions(), cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
            return response.Resource switch
            {
                { AutoscaleMaxThroughput: { } maximum } => (maximum, true),
                { Throughput: { } manual } => (manual, false),
                _ => (null, false),
            };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            // Serverless accounts, shared database throughput and local servers have no container offer. The figure prices
            // the run: unknown stays unknown rather than pricing what the plan asked for (it may never have been applied).
            return (null, false);
        }
    }

    private static TimeSpan? ReadRetryAfter(Headers headers) => OperationOutcome.RetryAfterMilliseconds(headers["x-ms-retry-after-ms"]);

    private static int SubStatus(Headers headers) =>
        int.TryParse(headers["x-ms-substatus"], System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var subStatus) ? subStatus : 0;

    private static bool IsBase64(string key)
    {
        var bytes = new byte[key.Length];
        return Convert.TryFromBase64String(key, bytes, out var written) && written > 0;
    }

    private static string Describe(Exception ex) => ex switch
    {
        _ when EndpointRefusedException.Find(ex) is not null => ErrorText.NoResponse(ex),
        CosmosException cosmos => ErrorText.Status(cosmos.StatusCode, cosmos.SubStatusCode),
        HttpRequestException or OperationCanceledException => ErrorText.NoResponse(ex),
        _ => ex.GetType().Name,
    };
}
