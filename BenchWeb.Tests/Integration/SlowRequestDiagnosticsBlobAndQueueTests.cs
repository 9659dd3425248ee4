using BenchEngine.Diagnostics;
using BenchEngine.Running;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Integration;

/// <summary>The Blob Storage and Queue Storage targets' slow-request diagnostics against Azurite's blob and queue services.</summary>
[Collection(AzuriteBlobsAndQueuesCollection.Name)]
[IntegrationTest]
public class SlowRequestDiagnosticsBlobAndQueueTests(AzuriteBlobServer blobs, AzuriteQueueServer queues)
{
    [Theory]
    [InlineData("BlobStorage")]
    [InlineData("QueueStorage")]
    public async Task RunAsync_KeepsRequestIdsAndNoCredential(string kind)
    {
        IAzuriteStorage server = kind == "BlobStorage" ? blobs : queues;
        var plan = StorageTargets.Plan(server.Options(StorageTargets.NewName()), concurrency: 4, documents: 300) with
        {
            Diagnostics = new DiagnosticsOptions { ThresholdMs = 0, SlowestPerSecond = 0 },
        };

        var result = await new BenchmarkRunner().RunAsync(plan, StorageTargets.Context(server));

        Assert.Equal(RunStatus.Completed, result.Status);
        Assert.NotEmpty(result.SlowRequests);
        Assert.All(result.SlowRequests, entry =>
        {
            Assert.Equal(201, entry.StatusCode);
            Assert.Matches(@"x-ms-request-id: [0-9a-f-]{36}", entry.Text);
            Assert.Contains($"service: {(kind == "BlobStorage" ? "blob" : "queue")}", entry.Text, StringComparison.Ordinal);
            SlowRequestDiagnosticsTableTests.SecretsAbsent(entry, server.ConnectionString);
        });
    }
}
