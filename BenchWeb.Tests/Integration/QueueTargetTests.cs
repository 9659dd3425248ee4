using System.Text;
using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Queue Storage target against Azurite's queue service; what it shares with the blob target is in
/// <see cref="BlobTargetAndQueueTargetAzuriteTests"/>. Messages are read back by receiving them with the SDK's own client.</summary>
[Collection(AzuriteBlobsAndQueuesCollection.Name)]
[IntegrationTest]
public class QueueTargetTests(AzuriteQueueServer azurite)
{
    /// <summary>A document whose JSON is exactly <paramref name="bytes"/> bytes.</summary>
    private static Document OfJsonBytes(int bytes)
    {
        var empty = DocumentJson.Measure(new Document("d", "pk", [new("Text", "")]));
        return new Document("d", "pk", [new("Text", new string('x', bytes - empty))]);
    }

    [Fact]
    public async Task RunAsync_SendsEachDocumentOnce_AsAMessageOfThePaddedSize()
    {
        var queue = StorageTargets.NewName();
        var plan = StorageTargets.Plan(azurite.Options(queue), concurrency: 4, documents: 300);

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(azurite));
        var received = await azurite.ReceiveAllAsync(queue);

        Assert.Equal(300, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(300, received.Select(text => JsonDocument.Parse(text).RootElement.GetProperty("id").GetString()).Distinct(StringComparer.Ordinal).Count());
        Assert.All(received, text => Assert.Equal(1_024, Encoding.UTF8.GetByteCount(text)));
    }

    [Fact]
    public async Task WriteAsync_SendsTheDocumentsJsonAsTheMessageText()
    {
        var queue = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(azurite.Options(queue), StorageTargets.Context(azurite));
        var document = new Document("doc-1", "pk", [new("Name", "Ada"), new("Count", 3), new("Tag", "<&>"), new("Accent", "é")]);

        var outcome = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        var text = Assert.Single(await azurite.ReceiveAllAsync(queue));
        var json = new System.Buffers.ArrayBufferWriter<byte>();
        DocumentJson.Write(json, document);
        Assert.Equal((OutcomeKind.Ok, 201, 1), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal(Encoding.UTF8.GetString(json.WrittenSpan), text);
        Assert.Equal(json.WrittenCount, outcome.Bytes);
        Assert.Equal(outcome.Bytes, target.MeasureRequestBytes(document));
        Assert.Equal(0, outcome.RequestUnits);
    }

    [Fact]
    public async Task WriteAsync_SendsANewMessageEachTime_WhenCreatingOrUpsertingTheSameDocument()
    {
        var queue = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(azurite.Options(queue), StorageTargets.Context(azurite));
        var document = new Document("same", "pk", [new("Value", 1)]);

        var outcomes = new[]
        {
            await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None),
            await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None),
            await target.WriteAsync([document], WriteOperation.Upsert, CancellationToken.None),
        };

        Assert.All(outcomes, o => Assert.Equal((OutcomeKind.Ok, 201), (o.Kind, o.StatusCode)));
        Assert.Equal(3, (await azurite.ReceiveAllAsync(queue)).Count);
    }

    [Fact]
    public async Task WriteAsync_LandsAMessageOfExactly64KiBOfJson_AndIsA413ErrorForOneByteMore()
    {
        var queue = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(azurite.Options(queue), StorageTargets.Context(azurite));

        var largest = await target.WriteAsync([OfJsonBytes(65_536)], WriteOperation.Create, CancellationToken.None);
        var tooLarge = await target.WriteAsync([OfJsonBytes(65_537)], WriteOperation.Create, CancellationToken.None);

        Assert.Equal((OutcomeKind.Ok, 65_536L), (largest.Kind, largest.Bytes));
        Assert.Equal((OutcomeKind.Error, 413), (tooLarge.Kind, tooLarge.StatusCode));
        Assert.Equal("413 RequestBodyTooLarge", tooLarge.Error);
        var text = Assert.Single(await azurite.ReceiveAllAsync(queue));
        Assert.Equal(65_536, Encoding.UTF8.GetByteCount(text));
    }
}
