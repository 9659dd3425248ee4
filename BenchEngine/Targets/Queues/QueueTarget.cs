using Azure;
using Azure.Storage.Queues;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// Azure Queue Storage, through Azure.Storage.Queues: each document is sent as one message whose text is the document's
/// JSON, as is (no base64: the SDK's default encoding, set explicitly). A queue has no ids, so Create and Upsert both
/// send a new message. Queue Storage throttles with 503 (and 500 "operation timed out"; a 429 counts too).
/// Such an answer leaves open whether the message was enqueued, and its retry sends it again: unlike a table's entity or
/// a blob, whose retry finds the first attempt's write as "already exists", a message has no id of the client's, so a
/// retry after a 5xx may leave it twice and the queue may hold more messages than ok.
/// </summary>
/// <remarks>What is measured (padding, bytes) is the message text, which is what the service's 64 KiB limit counts; the
/// XML envelope the request wraps it in (<c>&lt;QueueMessage&gt;&lt;MessageText&gt;</c>…) is not part of the message.</remarks>
internal sealed class QueueTarget(QueueOptions options, TargetContext context)
    : StorageResourceTarget<QueueClient>(TargetKind.QueueStorage, context, options.ConnectionStringSecret)
{
    protected override string Service => "queue";

    protected override string Resource => $"queue '{options.QueueName}'";

    protected override (QueueClient Client, Uri ServiceUri) Connect(string connectionString, HttpMessageHandler transport)
    {
        var clientOptions = StorageRequests.Configure(new QueueClientOptions { MessageEncoding = QueueMessageEncoding.None }, transport);
        var service = new QueueServiceClient(connectionString, clientOptions);
        return (service.GetQueueClient(options.QueueName), service.Uri);
    }

    protected override async Task OpenAsync(QueueClient client, CancellationToken cancellationToken)
    {
        if (options.CreateIfMissing)
        {
            await client.CreateIfNotExistsAsync(metadata: null, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        else if (!await client.ExistsAsync(cancellationToken).ConfigureAwait(false))
        {
            throw new TargetConfigurationException($"Queue '{options.QueueName}' does not exist and creating it is off.");
        }
    }

    /// <summary>Sends the document as one message; <paramref name="operation"/> makes no difference to a queue.</summary>
    protected override async Task<Response> SendAsync(
        QueueClient client, Document document, ReadOnlyMemory<byte> json, WriteOperation operation, CancellationToken cancellationToken)
    {
        var response = await client.SendMessageAsync(BinaryData.FromBytes(json), visibilityTimeout: null, timeToLive: null, cancellationToken).ConfigureAwait(false);
        return response.GetRawResponse();
    }

    /// <summary>The queue's approximate message count (<c>x-ms-approximate-messages-count</c>): never lower than the
    /// messages in the queue, and exact on Azurite and on a queue nothing else reads. Peeking cannot count: it sees at
    /// most 32 messages.</summary>
    protected override async Task<long> CountAsync(QueueClient client, CancellationToken cancellationToken)
    {
        var properties = await client.GetPropertiesAsync(cancellationToken).ConfigureAwait(false);
        return properties.Value.ApproximateMessagesCountLong;
    }
}
