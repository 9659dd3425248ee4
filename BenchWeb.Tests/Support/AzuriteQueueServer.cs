using Azure.Storage.Queues;
using BenchEngine.Targets;

namespace BenchWeb.Tests.Support;

/// <summary>Azurite's queue service (Microsoft's Queue Storage emulator), in memory.</summary>
public sealed class AzuriteQueueServer() : AzuriteService("queue"), IAzuriteStorage
{
    public string Secret => "QUEUES_CONNECTION_STRING";

    public string Resource => "Queue";

    public TargetOptions Options(string name, bool createIfMissing = true) =>
        new() { Kind = TargetKind.QueueStorage, Queues = new QueueOptions { QueueName = name, CreateIfMissing = createIfMissing } };

    /// <summary>A client of the queue through the SDK alone: independent of the target under test.</summary>
    public QueueClient Queue(string name) => new(ConnectionString, name);

    /// <summary>Every message in the queue, received (32 at a time, hidden for an hour so none comes twice) with the SDK's
    /// own client: what landed, counted by reading it rather than by the queue's count.</summary>
    public async Task<List<string>> ReceiveAllAsync(string queue)
    {
        var client = Queue(queue);
        var texts = new List<string>();
        while (true)
        {
            var messages = (await client.ReceiveMessagesAsync(maxMessages: 32, visibilityTimeout: TimeSpan.FromHours(1))).Value;
            if (messages.Length == 0)
            {
                return texts;
            }

            texts.AddRange(messages.Select(m => m.Body.ToString()));
        }
    }

    public Task CreateAsync(string name) => Queue(name).CreateAsync();

    public async Task<bool> ExistsAsync(string name) => (await Queue(name).ExistsAsync()).Value;

    public async Task<int> CountItemsAsync(string name) => (await ReceiveAllAsync(name)).Count;
}
