extern alias CosmosTable;

using System.Net;
using BenchEngine.Workloads;
using CosmosTable::Microsoft.Azure.Cosmos.Table;

namespace BenchEngine.Targets;

/// <summary>
/// Azure Table Storage or the Cosmos DB Table API, through Microsoft.Azure.Cosmos.Table (the registry this
/// project builds from has no Azure.Data.Tables). The SDK's retries are off so that every throttle is counted:
/// Table Storage throttles with 503 (and 500 "operation timed out"), the Cosmos DB Table API with 429.
/// </summary>
internal sealed class TableTarget : IInsertTarget
{
    private static readonly TableRequestOptions RequestOptions = new()
    {
        RetryPolicy = new CosmosTable::Microsoft.Azure.Cosmos.Table.NoRetry(),
        PayloadFormat = TablePayloadFormat.JsonNoMetadata,
    };

    private readonly TableOptions _options;
    private readonly TargetContext _context;
    private readonly TargetKind _kind;
    private CloudTable? _table;

    public TableTarget(TargetKind kind, TableOptions options, TargetContext context)
    {
        _kind = kind;
        _options = options;
        _context = context;
        Description = kind == TargetKind.CosmosTable ? "Azure Cosmos DB for Table" : "Azure Table Storage";
    }

    public string Description { get; }

    public bool IsModel => false;

    public double? ProvisionedRequestUnits => null;

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        var connectionString = _context.RequireSecret(_options.ConnectionStringSecret);
        if (!CloudStorageAccount.TryParse(connectionString, out var account))
        {
            throw new TargetConfigurationException($"The secret '{_options.ConnectionStringSecret}' is not a valid storage connection string.");
        }

        _table = account.CreateCloudTableClient().GetTableReference(_options.TableName);
        try
        {
            if (_options.CreateIfMissing)
            {
                await _table.CreateIfNotExistsAsync(RequestOptions, null, cancellationToken).ConfigureAwait(false);
            }
            else if (!await _table.ExistsAsync(RequestOptions, null, cancellationToken).ConfigureAwait(false))
            {
                throw new TargetConfigurationException($"Table '{_options.TableName}' does not exist and creating it is off.");
            }
        }
        catch (StorageException ex)
        {
            throw new TargetConfigurationException($"Cannot open table '{_options.TableName}' at {account.TableEndpoint}: {ex.Message}", ex);
        }
    }

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        var table = _table ?? throw new InvalidOperationException("InitializeAsync first.");
        long bytes = 0;
        try
        {
            if (documents.Count == 1)
            {
                var entity = ToEntity(documents[0], ref bytes);
                var single = operation == WriteOperation.Upsert ? TableOperation.InsertOrReplace(entity) : TableOperation.Insert(entity, echoContent: false);
                var result = await table.ExecuteAsync(single, RequestOptions, null, cancellationToken).ConfigureAwait(false);
                return OperationOutcome.Ok(result.HttpStatusCode, 1, result.RequestCharge ?? 0, bytes);
            }

            var batch = new TableBatchOperation();
            foreach (var document in documents)
            {
                var entity = ToEntity(document, ref bytes);
                if (operation == WriteOperation.Upsert)
                {
                    batch.InsertOrReplace(entity);
                }
                else
                {
                    batch.Insert(entity, echoContent: false);
                }
            }

            var results = await table.ExecuteBatchAsync(batch, RequestOptions, null, cancellationToken).ConfigureAwait(false);
            return OperationOutcome.Ok(202, documents.Count, results.RequestCharge ?? 0, bytes);
        }
        catch (StorageException ex) when (!cancellationToken.IsCancellationRequested || ex.RequestInformation.HttpStatusCode != 0)
        {
            var status = ex.RequestInformation.HttpStatusCode;
            var charge = ex.RequestInformation.RequestCharge ?? 0;
            if (IsThrottle(status))
            {
                return OperationOutcome.Throttled(status, charge, retryAfter: null);
            }

            var code = ex.RequestInformation.ExtendedErrorInformation?.ErrorCode ?? ex.RequestInformation.HttpStatusMessage;
            return OperationOutcome.Failed(status, charge, $"{status} {code}: {ex.Message.Split('\n', 2)[0].Trim()}");
        }
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        var table = _table ?? throw new InvalidOperationException("InitializeAsync first.");
        var query = new TableQuery<DynamicTableEntity>().Select(["PartitionKey"]);
        long count = 0;
        TableContinuationToken? token = null;
        do
        {
            var segment = await table.ExecuteQuerySegmentedAsync(query, token, RequestOptions, null, cancellationToken).ConfigureAwait(false);
            count += segment.Results.Count;
            token = segment.ContinuationToken;
        }
        while (token is not null);
        return count;
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private bool IsThrottle(int status) => _kind == TargetKind.CosmosTable
        ? status == 429
        : status is (int)HttpStatusCode.ServiceUnavailable or (int)HttpStatusCode.InternalServerError or 429;

    private static DynamicTableEntity ToEntity(Document document, ref long bytes)
    {
        var entity = new DynamicTableEntity(document.PartitionKey, document.Id);
        bytes += document.PartitionKey.Length + document.Id.Length;
        foreach (var (name, value) in document.Fields)
        {
            if (name is "PartitionKey" or "RowKey" or "Timestamp" or "id")
            {
                continue;
            }

            var property = ToProperty(value);
            entity.Properties[name] = property;
            bytes += name.Length + (value is string s ? s.Length : 8);
        }

        return entity;
    }

    private static EntityProperty ToProperty(object? value) => value switch
    {
        null => EntityProperty.GeneratePropertyForString(null),
        string s => EntityProperty.GeneratePropertyForString(s),
        int i => EntityProperty.GeneratePropertyForInt(i),
        long l => EntityProperty.GeneratePropertyForLong(l),
        double d => EntityProperty.GeneratePropertyForDouble(d),
        bool b => EntityProperty.GeneratePropertyForBool(b),
        DateTimeOffset t => EntityProperty.GeneratePropertyForDateTimeOffset(t),
        DateTime t => EntityProperty.GeneratePropertyForDateTimeOffset(new DateTimeOffset(t)),
        Guid g => EntityProperty.GeneratePropertyForGuid(g),
        _ => EntityProperty.GeneratePropertyForString(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture)),
    };
}
