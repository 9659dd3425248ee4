using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Presets;

/// <summary>The rows of the storage services' latency and throughput comparison tables as presets (Blob Storage, Queue
/// Storage, Azure Cache for Redis): ~1 KB items written by a closed loop of workers until a count. None has a published
/// figure of its own: each is a row to run against one's own account.</summary>
internal static class StoragePresets
{
    /// <summary>Each item's size as the target sends it: "1 KB" in the tables' terms.</summary>
    public const int ItemBytes = 1_024;

    /// <summary>Every row, by service in the order the profile form lists the services (Blob Storage, Queue Storage, Redis).</summary>
    public static IReadOnlyList<Preset> All { get; } =
    [
        Row(TargetKind.BlobStorage, "BL1", "1 KB block blobs, 10 parallel writers, 10,000 blobs", workers: 10, items: 10_000,
            "Throughput of small uploads: ten writers each putting the next ~1 KB blob as soon as the last one returns. "
            + "Look at blobs/s, the latency percentiles and any 503s (Blob Storage's throttle).",
            "How many small blobs a second ten parallel writers upload, and when Blob Storage starts answering 503."),
        Row(TargetKind.BlobStorage, "BL2", "1 KB block blobs, 1 writer, 1,000 blobs", workers: 1, items: 1_000,
            "Latency of one writer uploading ~1 KB blobs one after another: what a single request costs, with no queueing of its own. "
            + "Compare its P50 and P99 with BL1's.",
            "What one small upload costs when nothing queues: the latency floor of Blob Storage from this client."),
        Row(TargetKind.QueueStorage, "Q1", "1 KB messages, 10 parallel senders, 10,000 messages", workers: 10, items: 10_000,
            "Throughput of small messages: ten senders each sending the next ~1 KB message as soon as the last one returns. "
            + "Look at messages/s, the latency percentiles and any 503s (Queue Storage's throttle).",
            "How many small messages a second ten parallel senders put on a queue, and when Queue Storage starts answering 503."),
        Row(TargetKind.QueueStorage, "Q2", "1 KB messages, 1 sender, 1,000 messages", workers: 1, items: 1_000,
            "Latency of one sender putting ~1 KB messages one after another: what a single request costs, with no queueing of its own. "
            + "Compare its P50 and P99 with Q1's.",
            "What sending one message costs when nothing queues: the latency floor of Queue Storage from this client."),
        RedisRow("RD1", "1 KB SET, 1 client", concurrency: 1, batchSize: 1, totalKeys: 100_000,
            "One client writing 1 KB values with SET, one at a time: the round trip alone, as the comparison table's single-client row. "
            + "Azure Cache for Redis does not throttle: a cache that cannot keep up answers with errors (OOM, BUSY) or times out, "
            + "and those count as errors.",
            "The round trip of one write from one client: the cache's latency floor from this machine."),
        RedisRow("RD2", "1 KB SET, 50 clients, pipelined batches of 10", concurrency: 50, batchSize: 10, totalKeys: 1_000_000,
            "50 clients each sending pipelines of 10 SETs of 1 KB values, as the comparison table's pipelined row: what the cache "
            + "serves when round trips overlap. Latency is per pipeline. Compare keys/s with RD1 and watch the cache's CPU and memory: "
            + "a full cache answers OOM, counted as errors, not throttles.",
            "How many keys a second the cache takes when 50 clients overlap their round trips, and whether its CPU or memory gives out first."),
    ];

    /// <summary>A row: <paramref name="workers"/> closed-loop workers creating <paramref name="items"/> ~1 KB small records.</summary>
    public static Preset Row(TargetKind kind, string id, string title, int workers, long items, string summary, string tells) => new()
    {
        Id = id,
        Title = title,
        Summary = summary,
        Tells = tells,
        Study = PresetStudy.ComparisonTables,
        OriginalResult = "No original figure: a row of the comparison table to run against your account",
        Plan = new RunPlan
        {
            Name = $"{id}: {title}",
            Target = new TargetOptions { Kind = kind, Operation = WriteOperation.Create },
            Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto, TargetSizeBytes = ItemBytes },
            Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = workers },
            Stop = new StopOptions { TotalDocuments = items },
        },
    };

    // A row of the comparison table as the storage services' rows are, writing with SET (upsert) in pipelines of
    // batchSize. The host stays empty on purpose: validation then asks for the user's cache rather than a run going to a
    // placeholder.
    private static Preset RedisRow(string id, string title, int concurrency, int batchSize, long totalKeys, string summary, string tells)
    {
        var row = Row(TargetKind.Redis, id, title, concurrency, totalKeys, summary, tells);
        return row with
        {
            OriginalResult = "No original figure: a row of the comparison table to run against your cache",
            Plan = row.Plan with
            {
                Target = row.Plan.Target with
                {
                    Operation = WriteOperation.Upsert,
                    Redis = new RedisOptions { KeyPrefix = $"benchweb:{id.ToLowerInvariant()}:" },
                },

                // Redis ignores partition keys; a few fixed ones let the simulated twin (whose batches share a key) batch too.
                Workload = row.Plan.Workload with { PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FixedKeys } },
                Load = row.Plan.Load with { BatchSize = batchSize },
            },
        };
    }
}
