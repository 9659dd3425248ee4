using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// Azure Blob Storage, through Azure.Storage.Blobs: each document is uploaded as one block blob named by its id, its
/// body the document's JSON, in a single Put Blob request. Create uploads only if no blob of that name exists
/// (<c>If-None-Match: *</c>), so an existing one is a 409 error; upsert overwrites. Blob Storage throttles with 503
/// (and 500 "operation timed out"; a 429 counts too).
/// </summary>
internal sealed class BlobTarget(BlobOptions options, TargetContext context)
    : StorageResourceTarget<BlobContainerClient>(TargetKind.BlobStorage, context, options.ConnectionStringSecret)
{
    protected override string Service => "blob";

    protected override string Resource => $"container '{options.ContainerName}'";

    /// <summary>What a Create's <c>If-None-Match: *</c> gets for a blob that exists.</summary>
    protected override string? ExistsCode => "BlobAlreadyExists";

    protected override (BlobContainerClient Client, Uri ServiceUri) Connect(string connectionString, HttpMessageHandler transport)
    {
        var service = new BlobServiceClient(connectionString, StorageRequests.Configure(new BlobClientOptions(), transport));
        return (service.GetBlobContainerClient(options.ContainerName), service.Uri);
    }

    protected override async Task OpenAsync(BlobContainerClient client, CancellationToken cancellationToken)
    {
        if (options.CreateIfMissing)
        {
            await client.CreateIfNotExistsAsync(PublicAccessType.None, metadata: null, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        else if (!await client.ExistsAsync(cancellationToken).ConfigureAwait(false))
        {
            throw new TargetConfigurationException($"Container '{options.ContainerName}' does not exist and creating it is off.");
        }
    }

    protected override string? Refuse(Document document) =>
        document.Id.Length == 0 ? "A blob is named by its document's id, and this document's id is empty." : null;

    protected override async Task<Response> SendAsync(
        BlobContainerClient client, Document document, ReadOnlyMemory<byte> json, WriteOperation operation, CancellationToken cancellationToken)
    {
        var upload = new BlobUploadOptions
        {
            HttpHeaders = new BlobHttpHeaders { ContentType = "application/json" },

            // Create: only when no blob has this name, so an existing one is a 409 BlobAlreadyExists.
            Conditions = operation == WriteOperation.Create ? new BlobRequestConditions { IfNoneMatch = ETag.All } : null,
        };
        using var content = BinaryData.FromBytes(json).ToStream();
        var response = await client.GetBlockBlobClient(document.Id).UploadAsync(content, upload, cancellationToken).ConfigureAwait(false);
        return response.GetRawResponse();
    }

    /// <summary>The blobs in the container, by listing it (5,000 names a page).</summary>
    protected override async Task<long> CountAsync(BlobContainerClient client, CancellationToken cancellationToken)
    {
        long count = 0;
        await foreach (var page in client.GetBlobsAsync(new GetBlobsOptions(), cancellationToken).AsPages(pageSizeHint: 5_000).ConfigureAwait(false))
        {
            count += page.Values.Count;
        }

        return count;
    }
}
