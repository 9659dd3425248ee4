namespace BenchEngine.Workloads;

/// <summary>
/// Turns a shape's fields into documents: a unique GUID id (<see cref="UniqueIds"/>), the partition key, and the optional padding.
/// Only the sequence number, one size measurement and a bounded set of filler strings are kept, so
/// memory does not grow with the run.
/// </summary>
internal sealed class DocumentSource : IDocumentSource
{
    /// <summary>A field of this name holds the partition key itself and is overwritten with the chosen
    /// key: Cosmos DB rejects a body whose key differs from the one the request names.</summary>
    public const string PartitionKeyField = "PartitionKey";

    public const string PaddingField = "Padding";

    // Filler strings are shared between documents (strings are immutable) up to this many characters in
    // all: lengths cluster around one value, so a run allocates a handful rather than one per document.
    private const int FillerCacheChars = 1 << 20;

    private readonly IFieldSource _fields;
    private readonly PartitionKeySelector _partitionKeys;
    private readonly int _fieldCount;
    private readonly int _partitionKeyFieldIndex;
    private readonly int? _targetSizeBytes;
    private readonly Dictionary<int, string> _fillers = [];

    private int _fillerCacheChars;
    private Func<Document, int> _measure = static document => DocumentJson.Measure(document);
    private long _sequence;

    private readonly WorkloadShard? _shard;
    private readonly UniqueIds _ids;

    /// <param name="fields">The shape's fields.</param>
    /// <param name="partitionKeys">Chooses each document's partition key.</param>
    /// <param name="targetSizeBytes">Pad each document to this many bytes; null for no padding.</param>
    /// <param name="description">The workload in words.</param>
    /// <param name="shard">This source's share of the documents; null for all of them.</param>
    /// <param name="ids">The documents' ids; default: a fresh key (<see cref="UniqueIds.Draw"/>).</param>
    public DocumentSource(IFieldSource fields, PartitionKeySelector partitionKeys, int? targetSizeBytes, string description, WorkloadShard? shard = null, UniqueIds? ids = null)
    {
        _ids = ids ?? UniqueIds.Draw();
        _shard = shard is { Count: > 1 } ? shard : null;
        _fields = fields;
        _partitionKeys = partitionKeys;
        _fieldCount = fields.FieldNames.Count;
        _partitionKeyFieldIndex = fields.FieldNames.ToList().IndexOf(PartitionKeyField);
        _targetSizeBytes = targetSizeBytes;
        Description = description;
    }

    public string Description { get; }

    public bool TryNext(out Document document)
    {
        var values = new KeyValuePair<string, object?>[_targetSizeBytes is null ? _fieldCount : _fieldCount + 1];
        while (true)
        {
            if (!_fields.TryFill(_sequence, values.AsSpan(0, _fieldCount)))
            {
                document = null!;
                return false;
            }

            // Another shard's document: read past it (a file is read record by record; generators move on).
            if (_shard is not { } shard || _sequence % shard.Count == shard.Index)
            {
                break;
            }

            _sequence++;
        }

        var partitionKey = _partitionKeys.Select(_sequence, values.AsSpan(0, _fieldCount));
        if (_partitionKeyFieldIndex >= 0)
        {
            values[_partitionKeyFieldIndex] = new(PartitionKeyField, partitionKey);
        }

        document = new Document(_ids.Next(_sequence), partitionKey, values);
        if (_targetSizeBytes is int target)
        {
            values[^1] = new(PaddingField, Padding(document, values, target));
        }

        _sequence++;
        return true;
    }

    public void MeasureWith(Func<Document, int> measure)
    {
        ArgumentNullException.ThrowIfNull(measure);
        _measure = measure;
    }

    public void Dispose() => _fields.Dispose();

    /// <summary>
    /// Filler that brings the request body to exactly <paramref name="target"/> bytes (when the rest is smaller): the
    /// document is measured with an empty padding, as the target will send it, then filled with one ASCII character per
    /// missing byte. Each document is measured, because numbers, dates and escaped text vary in length from one document
    /// to the next.
    /// </summary>
    private string Padding(Document document, KeyValuePair<string, object?>[] values, int target)
    {
        values[^1] = new(PaddingField, string.Empty);
        return Filler(target - _measure(document));
    }

    private string Filler(int length)
    {
        if (length <= 0)
        {
            return string.Empty;
        }

        if (!_fillers.TryGetValue(length, out var filler))
        {
            filler = new string('x', length);
            if (_fillerCacheChars + length <= FillerCacheChars)
            {
                _fillers.Add(length, filler);
                _fillerCacheChars += length;
            }
        }

        return filler;
    }
}
