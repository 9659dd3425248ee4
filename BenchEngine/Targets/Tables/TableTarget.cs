using System.Globalization;
using Azure;
using Azure.Data.Tables;
using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// Azure Table Storage or the Cosmos DB Table API, through Azure.Data.Tables. The SDK's retries are off so that
/// every throttle is counted: Table Storage throttles with 503 (and 500 "operation timed out"; a 429 counts too),
/// the Cosmos DB Table API with 429.
/// </summary>
internal sealed class TableTarget : IInsertTarget
{
    /// <summary>The Cosmos DB Table API reports each request's RU charge here; Table Storage sends no such header.</summary>
    private const string RequestChargeHeader = "x-ms-request-charge";

    /// <summary>What an insert gets, with 409, for an entity that exists (alone or in a transaction).</summary>
    private const string EntityExistsCode = "EntityAlreadyExists";

    private readonly TableOptions _options;
    private readonly TargetContext _context;
    private readonly TargetKind _kind;
    private TableClient? _table;
    private SocketsHttpHandler? _handler;

    public TableTarget(TargetKind kind, TableOptions options, TargetContext context)
    {
        _kind = kind;
        _options = options;
        _context = context;
        Description = kind.DisplayName();
    }

    public string Description { get; }

    public bool IsModel => false;

    public double? ProvisionedRequestUnits => null;

    /// <summary>Table Storage charges by transaction, not in request units; the Cosmos DB Table API reports them.</summary>
    public bool ReportsRequestUnits => _kind == TargetKind.CosmosTable;

    /// <summary>The entity's JSON as Azure.Data.Tables sends it for a single insert: PartitionKey and RowKey, the properties,
    /// and an <c>@odata.type</c> annotation beside each Int64, Double, DateTime and Guid value (the Int64 itself as a string).</summary>
    public int MeasureRequestBytes(Document document)
    {
        long ignored = 0;
        var entity = ToEntity(document, ref ignored);
        var body = new System.Buffers.ArrayBufferWriter<byte>(1024);
        using (var writer = new System.Text.Json.Utf8JsonWriter(body))
        {
            writer.WriteStartObject();
            foreach (var (name, value) in entity)
            {
                switch (value)
                {
                    case long number:
                        writer.WriteString(name, number.ToString(CultureInfo.InvariantCulture));
                        writer.WriteString(name + "@odata.type", "Edm.Int64");
                        break;
                    case double real:
                        writer.WriteNumber(name, real);
                        writer.WriteString(name + "@odata.type", "Edm.Double");
                        break;
                    case DateTimeOffset time:
                        writer.WriteString(name, time.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.FFFFFFF'Z'", CultureInfo.InvariantCulture));
                        writer.WriteString(name + "@odata.type", "Edm.DateTime");
                        break;
                    case Guid guid:
                        writer.WriteString(name, guid);
                        writer.WriteString(name + "@odata.type", "Edm.Guid");
                        break;
                    default:
                        writer.WritePropertyName(name);
                        System.Text.Json.JsonSerializer.Serialize(writer, value);
                        break;
                }
            }

            writer.WriteEndObject();
        }

        return body.WrittenCount;
    }

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var (service, handler, endpoint) = StorageRequests.Connect(
            _context, _options.ConnectionStringSecret, "table",
            (connectionString, transport) => new TableServiceClient(connectionString, StorageRequests.Configure(new TableClientOptions(), transport)),
            client => client.Uri);
        _handler = handler;
        var table = service.GetTableClient(_options.TableName);
        await StorageRequests.OpenAsync($"table '{_options.TableName}'", endpoint, async ct =>
        {
            if (_options.CreateIfMissing)
            {
                await table.CreateIfNotExistsAsync(ct).ConfigureAwait(false);
            }
            else if (!await ExistsAsync(service, _options.TableName, ct).ConfigureAwait(false))
            {
                throw new TargetConfigurationException($"Table '{_options.TableName}' does not exist and creating it is off.");
            }
        }, cancellationToken).ConfigureAwait(false);
        _table = table;
    }

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var table = _table ?? throw new InvalidOperationException("InitializeAsync first.");
        if (documents.Count > 1 && CheckTransaction(documents) is { } invalid)
        {
            // Nothing was sent, so no status: the real services refuse such a transaction with a 400, but Azurite
            // accepts mixed partition keys and answers more than 100 entities with a response the SDK cannot read.
            return OperationOutcome.Failed(0, 0, invalid);
        }

        long bytes = 0;
        TableEntity? single = null;
        List<TableTransactionAction>? actions = null;
        if (documents.Count == 1)
        {
            single = ToEntity(documents[0], ref bytes);
        }
        else
        {
            var actionType = operation == WriteOperation.Upsert ? TableTransactionActionType.UpsertReplace : TableTransactionActionType.Add;
            actions = new List<TableTransactionAction>(documents.Count);
            foreach (var document in documents)
            {
                actions.Add(new TableTransactionAction(actionType, ToEntity(document, ref bytes)));
            }
        }

        // A failed transaction (TableTransactionFailedException) carries the failing entity's status and code. A Create
        // refused as "already exists" names all its documents (a transaction lands whole or not at all): should an earlier
        // attempt of it have been answered 500 or 503, they are what that attempt landed, and count as ok, not as an error.
        return await StorageRequests.WriteAsync(
            async () =>
            {
                if (single is not null)
                {
                    using var response = operation == WriteOperation.Upsert
                        ? await table.UpsertEntityAsync(single, TableUpdateMode.Replace, cancellationToken).ConfigureAwait(false)
                        : await table.AddEntityAsync(single, cancellationToken).ConfigureAwait(false);
                    return OperationOutcome.Ok(response.Status, 1, RequestCharge(response), bytes) with { Diagnostics = response };
                }

                var result = await table.SubmitTransactionAsync(actions!, cancellationToken).ConfigureAwait(false);
                using var raw = result.GetRawResponse();
                return OperationOutcome.Ok(raw.Status, documents.Count, RequestCharge(raw), bytes) with { Diagnostics = raw };
            },
            status => IsThrottle(_kind, status),
            RequestCharge,
            operation == WriteOperation.Create ? (EntityExistsCode, documents.Count, bytes) : null,
            cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The request ids, status and timings the SDK's response kept (<see cref="StorageRequests.DescribeRequest"/>);
    /// its headers are still there after the response was disposed, which only releases its body.</summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request) => StorageRequests.DescribeRequest(request, "table");

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        var table = _table ?? throw new InvalidOperationException("InitializeAsync first.");
        var pages = table.QueryAsync<TableEntity>(filter: (string?)null, maxPerPage: 1000, select: [nameof(ITableEntity.PartitionKey)], cancellationToken: cancellationToken);
        long count = 0;
        await foreach (var page in pages.AsPages().ConfigureAwait(false))
        {
            count += page.Values.Count;
        }

        return count;
    }

    public ValueTask DisposeAsync()
    {
        _handler?.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>Whether a status is the service asking the client to slow down (retried and counted as a throttle)
    /// rather than a failure. Table Storage says "server busy" with 503 and "operation timed out" with 500; the
    /// Cosmos DB Table API throttles with 429 only, so a 503 from it is an outage.</summary>
    internal static bool IsThrottle(TargetKind kind, int status) => kind == TargetKind.CosmosTable
        ? status == 429
        : StorageRequests.IsThrottle(status);

    /// <summary>Why <paramref name="documents"/> cannot be one entity-group transaction, or null when they can.</summary>
    internal static string? CheckTransaction(IReadOnlyList<Document> documents)
    {
        if (documents.Count > RunPlan.MaxTableBatch)
        {
            return $"An entity-group transaction holds at most {RunPlan.MaxTableBatch} entities; this one has {documents.Count}.";
        }

        var partitionKey = documents[0].PartitionKey;
        for (var i = 1; i < documents.Count; i++)
        {
            if (!string.Equals(documents[i].PartitionKey, partitionKey, StringComparison.Ordinal))
            {
                // Positions, not the keys: a key can be a value read from a workload file.
                return $"The entities of an entity-group transaction must share one partition key; entities 1 and {i + 1} differ.";
            }
        }

        return null;
    }

    private static async Task<bool> ExistsAsync(TableServiceClient service, string tableName, CancellationToken cancellationToken)
    {
        var filter = TableServiceClient.CreateQueryFilter($"TableName eq {tableName}");
        await foreach (var _ in service.QueryAsync(filter, maxPerPage: 1, cancellationToken).ConfigureAwait(false))
        {
            return true;
        }

        return false;
    }

    private static double RequestCharge(Response response) =>
        response.Headers.TryGetValue(RequestChargeHeader, out var value)
        && double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var charge)
            ? charge
            : 0;

    private static TableEntity ToEntity(Document document, ref long bytes)
    {
        var entity = new TableEntity(document.PartitionKey, document.Id);
        bytes += document.PartitionKey.Length + document.Id.Length;
        foreach (var (name, value) in document.Fields)
        {
            if (name is "PartitionKey" or "RowKey" or "Timestamp" or "id")
            {
                continue;
            }

            entity[name] = ToValue(value);
            bytes += name.Length + (value is string s ? s.Length : 8);
        }

        return entity;
    }

    /// <summary>A value of a type the table service stores (string, Int32, Int64, Double, Boolean, DateTime, Guid);
    /// anything else, a JSON template's nested object for one, is stored as its text.</summary>
    private static object? ToValue(object? value) => value switch
    {
        null or string or int or long or double or bool or DateTimeOffset or Guid => value,
        DateTime t => new DateTimeOffset(t),
        _ => Convert.ToString(value, CultureInfo.InvariantCulture),
    };
}
