using System.Buffers;
using System.Net;
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
    private Container? _container;

    public CosmosTarget(CosmosOptions options, TargetContext context)
    {
        _options = options;
        _context = context;
        _partitionKeyProperty = options.PartitionKeyPath.TrimStart('/');
        _requestOptions = new ItemRequestOptions { EnableContentResponseOnWrite = options.ContentResponseOnWrite };
        Description = $"Azure Cosmos DB (NoSQL) · {options.ConnectionMode}{(options.Bulk ? " · bulk" : "")}";
    }

    public string Description { get; }

    public bool IsModel => false;

    public double? ProvisionedRequestUnits { get; private set; }

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var key = _context.RequireSecret(_options.KeySecret);
        var clientOptions = new CosmosClientOptions
        {
            ConnectionMode = _options.ConnectionMode == CosmosConnectionMode.Direct ? ConnectionMode.Direct : ConnectionMode.Gateway,
            LimitToEndpoint = _options.LimitToEndpoint,
            AllowBulkExecution = _options.Bulk,
            GatewayModeMaxConnectionLimit = _options.GatewayMaxConnections,
            EnableContentResponseOnWrite = _options.ContentResponseOnWrite,
            // The engine retries throttled writes itself, honouring retry-after, so that each 429 is counted.
            MaxRetryAttemptsOnRateLimitedRequests = 0,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.Zero,
            ConsistencyLevel = _options.ConsistencyLevel is { } level ? (ConsistencyLevel)(int)level : null,
            ApplicationName = "BenchWeb",
        };
        if (_options.AcceptAnyServerCertificate)
        {
            clientOptions.ServerCertificateCustomValidationCallback = static (_, _, _) => true;
        }

        try
        {
            _client = new CosmosClient(_options.Endpoint, key, clientOptions);
            if (_options.CreateIfMissing)
            {
                Database database = await _client.CreateDatabaseIfNotExistsAsync(_options.Database, cancellationToken: cancellationToken).ConfigureAwait(false);
                _container = await database.CreateContainerIfNotExistsAsync(
                    BuildContainerProperties(), BuildThroughput(), cancellationToken: cancellationToken).ConfigureAwait(false);
            }
            else
            {
                _container = _client.GetContainer(_options.Database, _options.Container);
                await _container.ReadContainerStreamAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is CosmosException or HttpRequestException or ArgumentException or UriFormatException)
        {
            throw new TargetConfigurationException($"Cannot open Cosmos DB container '{_options.Database}/{_options.Container}' at {_options.Endpoint}: {ex.Message}", ex);
        }

        ProvisionedRequestUnits = await ReadThroughputAsync(cancellationToken).ConfigureAwait(false);
    }

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var container = _container ?? throw new InvalidOperationException("InitializeAsync first.");
        var document = documents[0];
        var body = new ArrayBufferWriter<byte>(1024);
        DocumentJson.Write(body, document, _partitionKeyProperty);
        using var stream = new MemoryStream(body.WrittenMemory.ToArray(), writable: false);
        var partitionKey = new PartitionKey(document.PartitionKey);
        try
        {
            using var response = operation == WriteOperation.Upsert
                ? await container.UpsertItemStreamAsync(stream, partitionKey, _requestOptions, cancellationToken).ConfigureAwait(false)
                : await container.CreateItemStreamAsync(stream, partitionKey, _requestOptions, cancellationToken).ConfigureAwait(false);
            var status = (int)response.StatusCode;
            var charge = response.Headers.RequestCharge;
            if (response.IsSuccessStatusCode)
            {
                return OperationOutcome.Ok(status, 1, charge, body.WrittenCount);
            }

            return response.StatusCode == HttpStatusCode.TooManyRequests
                ? OperationOutcome.Throttled(status, charge, ReadRetryAfter(response.Headers))
                : OperationOutcome.Failed(status, charge, $"{status} {response.StatusCode}: {FirstLine(response.ErrorMessage)}");
        }
        catch (CosmosException ex)
        {
            return ex.StatusCode == HttpStatusCode.TooManyRequests
                ? OperationOutcome.Throttled(429, ex.RequestCharge, ex.RetryAfter)
                : OperationOutcome.Failed((int)ex.StatusCode, ex.RequestCharge, $"{(int)ex.StatusCode} {ex.StatusCode}: {FirstLine(ex.Message)}");
        }
        catch (HttpRequestException ex)
        {
            return OperationOutcome.Failed(0, 0, $"no response: {ex.Message}");
        }
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

    private async Task<double?> ReadThroughputAsync(CancellationToken cancellationToken)
    {
        try
        {
            var response = await _container!.ReadThroughputAsync(new RequestOptions(), cancellationToken).ConfigureAwait(false);
            return response.Resource?.AutoscaleMaxThroughput ?? response.Resource?.Throughput ?? _options.RequestUnits;
        }
        catch (CosmosException)
        {
            // Serverless accounts, shared database throughput and local servers have no container offer.
            return _options.RequestUnits;
        }
    }

    private static TimeSpan? ReadRetryAfter(Headers headers) =>
        double.TryParse(headers["x-ms-retry-after-ms"], System.Globalization.CultureInfo.InvariantCulture, out var ms)
            ? TimeSpan.FromMilliseconds(ms)
            : null;

    private static string FirstLine(string? message) =>
        message is null ? "" : message.Split('\n', 2)[0].Trim();
}
