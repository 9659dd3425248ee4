using System.Buffers;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Blob Storage target against Azurite's blob service; what it shares with the queue target is in
/// <see cref="BlobTargetAndQueueTargetAzuriteTests"/>. Blobs are read back with the SDK's own client.</summary>
[Collection(AzuriteBlobsAndQueuesCollection.Name)]
[IntegrationTest]
public class BlobTargetTests(AzuriteBlobServer azurite)
{
    private static byte[] Json(Document document)
    {
        var body = new ArrayBufferWriter<byte>();
        DocumentJson.Write(body, document);
        return body.WrittenSpan.ToArray();
    }

    private async Task<byte[]> DownloadAsync(string container, string blob) =>
        (await azurite.Container(container).GetBlobClient(blob).DownloadContentAsync()).Value.Content.ToArray();

    [Fact]
    public async Task WriteAsync_UploadsTheDocumentsJsonAsABlockBlobNamedByItsId()
    {
        var container = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(azurite.Options(container), StorageTargets.Context(azurite));
        var document = new Document("doc-1", "pk", [new("Name", "Ada"), new("Count", 3), new("Tag", "<&>")]);

        var outcome = await target.WriteAsync([document], WriteOperation.Create, CancellationToken.None);

        var stored = (await azurite.Container(container).GetBlobClient("doc-1").DownloadContentAsync()).Value;
        Assert.Equal((OutcomeKind.Ok, 201, 1), (outcome.Kind, outcome.StatusCode, outcome.Documents));
        Assert.Equal(Json(document), stored.Content.ToArray());
        Assert.Equal(Azure.Storage.Blobs.Models.BlobType.Block, stored.Details.BlobType);
        Assert.Equal("application/json", stored.Details.ContentType);
        Assert.Equal(stored.Content.ToArray().Length, outcome.Bytes);
        Assert.Equal(outcome.Bytes, target.MeasureRequestBytes(document));
        Assert.Equal(0, outcome.RequestUnits);
    }

    [Fact]
    public async Task WriteAsync_IsA409ErrorNotAThrottle_WhenCreatingABlobThatExists_AndUpsertOverwritesIt()
    {
        var container = StorageTargets.NewName();
        await using var target = await StorageTargets.OpenAsync(azurite.Options(container), StorageTargets.Context(azurite));
        var first = new Document("same", "pk", [new("Version", 1)]);
        var second = new Document("same", "pk", [new("Version", 2)]);

        var created = await target.WriteAsync([first], WriteOperation.Create, CancellationToken.None);
        var again = await target.WriteAsync([second], WriteOperation.Create, CancellationToken.None);
        var afterConflict = await DownloadAsync(container, "same");
        var upserted = await target.WriteAsync([second], WriteOperation.Upsert, CancellationToken.None);

        Assert.Equal(OutcomeKind.Ok, created.Kind);
        Assert.Equal((OutcomeKind.Error, 409, 0), (again.Kind, again.StatusCode, again.Documents));
        Assert.Equal("409 BlobAlreadyExists", again.Error);
        Assert.Equal(Json(first), afterConflict);
        Assert.Equal((OutcomeKind.Ok, 201), (upserted.Kind, upserted.StatusCode));
        Assert.Equal(Json(second), await DownloadAsync(container, "same"));
        Assert.Equal(["same"], await azurite.ListBlobsAsync(container));
    }

    [Fact]
    public async Task RunAsync_CountsACreateAsLanded_WhenItsRetryFindsTheBlobItsAnswered500AttemptLanded()
    {
        // Every third upload lands, then is answered 500 "operation timed out"; its retry gets 409 BlobAlreadyExists.
        var container = StorageTargets.NewName();
        const string Body = """<?xml version="1.0" encoding="utf-8"?><Error><Code>OperationTimedOut</Code><Message>Timed out.</Message></Error>""";
        await using var proxy = await StorageFaultProxy.StartAsync(azurite, n => n % 3 == 0, 500, "application/xml", Body, "OperationTimedOut", landFirst: true);
        var plan = StorageTargets.Plan(azurite.Options(container), concurrency: 1, documents: 150) with
        {
            Load = new LoadOptions { Concurrency = 1, Throttling = new ThrottleOptions { MaxRetries = 3, BaseDelayMs = 1 } },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(azurite, proxy.ConnectionString));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.Equal((224, 74), (proxy.Writes, proxy.Faults));
        Assert.Equal((74L, 0L), (result.Summary.TotalThrottled, result.Summary.TotalErrors));
        Assert.Equal(150, result.Seconds.Sum(s => s.Ok));
        Assert.Equal(150, (await azurite.ListBlobsAsync(container)).Count);
    }
}
