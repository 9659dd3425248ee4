using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using BenchEngine.Targets;

namespace BenchWeb.Tests.Support;

/// <summary>Azurite's blob service (Microsoft's Blob Storage emulator), in memory.</summary>
public sealed class AzuriteBlobServer() : AzuriteService("blob"), IAzuriteStorage
{
    public string Secret => "BLOBS_CONNECTION_STRING";

    public string Resource => "Container";

    public TargetOptions Options(string name, bool createIfMissing = true) =>
        new() { Kind = TargetKind.BlobStorage, Blobs = new BlobOptions { ContainerName = name, CreateIfMissing = createIfMissing } };

    /// <summary>A client of the container through the SDK alone: independent of the target under test.</summary>
    public BlobContainerClient Container(string name) => new(ConnectionString, name);

    /// <summary>The names of the blobs in a container, listed with the SDK's own client.</summary>
    public async Task<List<string>> ListBlobsAsync(string container)
    {
        var names = new List<string>();
        await foreach (var blob in Container(container).GetBlobsAsync(new GetBlobsOptions()))
        {
            names.Add(blob.Name);
        }

        return names;
    }

    public Task CreateAsync(string name) => Container(name).CreateAsync();

    public async Task<bool> ExistsAsync(string name) => (await Container(name).ExistsAsync()).Value;

    public async Task<int> CountItemsAsync(string name) => (await ListBlobsAsync(name)).Count;
}
