using BenchEngine.Workloads;

namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Azure Queue Storage: one message per document; throttles with 503/500.</summary>
    public static TargetKind QueueStorage { get; } = new("QueueStorage");
}

public sealed partial record TargetOptions
{
    /// <summary>The queue, for Queue Storage.</summary>
    public QueueOptions Queues { get; init; } = new();
}

/// <summary>Azure Queue Storage: each document one message, its JSON as the message text.</summary>
internal sealed class QueuesModule() : StorageResourceModule(
    "Queues",
    StorageConnectionString.Queues,
    new TargetUnit("message", "messages"),
    new ItemSizeLimit("a Queue Storage message", MaxMessageBytes, CountsAsTableEntity: false, MaxPropertyChars: null),
    "queue",
    "Each document is sent as one message of its JSON (at most 64 KiB); Create and Upsert both send a new message. A write "
    + "retried after a 5xx answer (503, 500) may leave its message twice: the service may have enqueued it before answering, "
    + "and a message has no id of the client's to find it by, so the queue can hold more messages than ok.",
    t => t.Queues.ConnectionStringSecret,
    t => t.Queues.QueueName,
    t => t.Queues.CreateIfMissing)
{
    /// <summary>The longest message text the service takes: 64 KiB, counted as UTF-8 bytes of the text it decodes from
    /// the request. Messages are sent as text, not base64 (the SDK's default, kept), so that is the document's JSON.</summary>
    public const int MaxMessageBytes = 64 * 1024;

    public override TargetKind Kind => TargetKind.QueueStorage;

    public override IReadOnlyList<string> ServiceHostPatterns { get; } =
        ["*.queue.core.windows.net", "*.queue.core.chinacloudapi.cn", "*.queue.core.usgovcloudapi.net"];

    public override string DisplayName => "Queue Storage";

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new QueueTarget(options.Queues, context);

    public override string Describe(TargetOptions options) => base.Describe(options) + " (create and upsert both send; a write retried after a 5xx may be enqueued twice)";
}
