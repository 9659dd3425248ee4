namespace BenchEngine.Workloads;

/// <summary>
/// One document (or table entity) to write: an id (RowKey for tables), its partition key value and
/// its fields in order. Targets turn it into JSON (Cosmos DB) or entity properties (Tables).
/// </summary>
/// <remarks>Field values are <see cref="string"/>, <see cref="long"/>, <see cref="int"/>,
/// <see cref="double"/>, <see cref="bool"/>, <see cref="DateTimeOffset"/> or <c>null</c>; a JSON template's
/// nested objects and arrays are <see cref="System.Text.Json.JsonElement"/>s, written verbatim.</remarks>
public sealed class Document(string id, string partitionKey, IReadOnlyList<KeyValuePair<string, object?>> fields)
{
    public string Id { get; } = id;

    public string PartitionKey { get; } = partitionKey;

    public IReadOnlyList<KeyValuePair<string, object?>> Fields { get; } = fields;
}
