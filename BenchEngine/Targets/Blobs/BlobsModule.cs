using BenchEngine.Workloads;

namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Azure Blob Storage: one block blob per document; throttles with 503/500.</summary>
    public static TargetKind BlobStorage { get; } = new("BlobStorage");
}

public sealed partial record TargetOptions
{
    /// <summary>The container, for Blob Storage.</summary>
    public BlobOptions Blobs { get; init; } = new();
}

/// <summary>Azure Blob Storage: each document one block blob, uploaded in one request.</summary>
internal sealed class BlobsModule() : StorageResourceModule(
    "Blobs",
    StorageConnectionString.Blobs,
    new TargetUnit("blob", "blobs"),
    new ItemSizeLimit("a blob (one upload of at most 4 MiB here)", MaxBlobBytes, CountsAsTableEntity: false, MaxPropertyChars: null),
    "container",
    "Each document is one block blob named by its id; Create fails on an existing blob (409), Upsert overwrites it.",
    t => t.Blobs.ConnectionStringSecret,
    t => t.Blobs.ContainerName,
    t => t.Blobs.CreateIfMissing)
{
    /// <summary>The largest blob a run writes: one Put Blob of the document's JSON. The service takes far larger single
    /// uploads; a benchmark's documents are kilobytes, and 4 MiB keeps each one a single small request.</summary>
    public const int MaxBlobBytes = 4 * 1024 * 1024;

    public override TargetKind Kind => TargetKind.BlobStorage;

    public override IReadOnlyList<string> ServiceHostPatterns { get; } =
        ["*.blob.core.windows.net", "*.blob.core.chinacloudapi.cn", "*.blob.core.usgovcloudapi.net"];

    public override string DisplayName => "Blob Storage";

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new BlobTarget(options.Blobs, context);
}
