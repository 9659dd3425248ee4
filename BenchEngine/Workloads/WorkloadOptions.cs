using System.ComponentModel;
using System.Text.Json.Serialization;

namespace BenchEngine.Workloads;

/// <summary>What each document looks like and how its partition key is chosen.</summary>
public sealed record WorkloadOptions
{
    /// <summary>The document shape. Default: the ~150 B small DTO of the first seed experiments.</summary>
    [Description("Document shape to generate, or a CSV file to import.")]
    public DocumentShape Shape { get; init; } = DocumentShape.SmallDto;

    /// <summary>For <see cref="DocumentShape.JsonTemplate"/>: a flat JSON object whose string values may hold
    /// placeholders <c>{{guid}}</c>, <c>{{seq}}</c>, <c>{{int:MIN:MAX}}</c>, <c>{{text:LENGTH}}</c>,
    /// <c>{{pick:a|b|c}}</c>, <c>{{now}}</c>.</summary>
    public string? Template { get; init; }

    /// <summary>Pads each document with a filler field up to about this many bytes of JSON
    /// (the flight record of seed L1 was ~1,725 B). Null: no padding.</summary>
    [Description("Pad each document to about this many bytes (JSON). Empty: no padding.")]
    public int? TargetSizeBytes { get; init; }

    /// <summary>For <see cref="DocumentShape.CsvFile"/>: path of a CSV file with a header row (e.g. a BTS on-time file).</summary>
    public string? CsvPath { get; init; }

    /// <summary>For <see cref="DocumentShape.CsvFile"/> in the dashboard: the number of a CSV file uploaded to it. Plans
    /// from the web name files this way, never by path; the dashboard sets <see cref="CsvPath"/> from it, in memory, just
    /// before a run. The engine itself reads only <see cref="CsvPath"/>.</summary>
    public long? CsvFileId { get; init; }

    /// <summary>How each document's partition key is chosen. Null: the shape's own default
    /// (GUID for the small DTO and PerformanceData, sequence for the bulk record, Origin for flights).</summary>
    public PartitionKeyOptions? PartitionKey { get; init; }

    /// <summary>Seed for the random generators, so a run can be repeated document for document.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>This run is one of several sharing the workload (a run spread over agents): it writes only the documents
    /// whose sequence number is its own modulo their count. The shards together write each document of the workload
    /// once, and sequence-based keys and values never repeat between them. Null: the whole workload.</summary>
    public WorkloadShard? Shard { get; init; }
}

/// <summary>One share of a workload split between <see cref="Count"/> runs: documents <c>Index</c>, <c>Index + Count</c>, ….</summary>
public sealed record WorkloadShard(int Index, int Count)
{
    /// <summary>The most runs a workload is split between.</summary>
    public const int MaxCount = 64;
}

[JsonConverter(typeof(JsonStringEnumConverter<DocumentShape>))]
public enum DocumentShape
{
    /// <summary><c>{KeyNumber, SomeText, SomeCount, PartitionKey}</c>, ~150 B, GUID partition key.</summary>
    SmallDto,

    /// <summary>~200 B performance-counter record.</summary>
    PerformanceData,

    /// <summary>~320 B record of 10 fields, sequence partition key (the bulk-import seed).</summary>
    BulkRecord,

    /// <summary>First 50 columns of the BTS on-time file, PartitionKey = Origin with hub skew.</summary>
    Flight,

    /// <summary>A user JSON template, see <see cref="WorkloadOptions.Template"/>.</summary>
    JsonTemplate,

    /// <summary>Rows of a CSV file, streamed, see <see cref="WorkloadOptions.CsvPath"/>.</summary>
    CsvFile,
}

/// <summary>How a document's partition key value is chosen.</summary>
public sealed record PartitionKeyOptions
{
    public PartitionKeyStrategy Strategy { get; init; } = PartitionKeyStrategy.Guid;

    /// <summary>For <see cref="PartitionKeyStrategy.FieldValue"/>: the field whose value is the key (e.g. <c>Origin</c>).</summary>
    public string? Field { get; init; }

    /// <summary>For <see cref="PartitionKeyStrategy.FixedKeys"/> and <see cref="PartitionKeyStrategy.HotKey"/>: how many distinct keys.</summary>
    public int KeyCount { get; init; } = 10;

    /// <summary>For <see cref="PartitionKeyStrategy.HotKey"/>: the share of documents (0–1) that go to the one hot key.</summary>
    public double HotKeyFraction { get; init; } = 0.8;
}

[JsonConverter(typeof(JsonStringEnumConverter<PartitionKeyStrategy>))]
public enum PartitionKeyStrategy
{
    /// <summary>A new GUID per document: spreads load evenly, no two documents share a key.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1720", Justification = "The name users pick in profiles.")]
    Guid,

    /// <summary>The document's sequence number (0, 1, 2, …) as the key.</summary>
    Sequence,

    /// <summary>The value of one of the document's fields (e.g. a flight's Origin airport).</summary>
    FieldValue,

    /// <summary>Round robin over N fixed keys (<c>pk-0</c> … <c>pk-(N-1)</c>).</summary>
    FixedKeys,

    /// <summary>One hot key takes <see cref="PartitionKeyOptions.HotKeyFraction"/> of the documents; the rest spread over N-1 keys.</summary>
    HotKey,
}
