namespace BenchWeb.Tests.Support;

[CollectionDefinition(Name)]
public sealed class AzuriteCollection : ICollectionFixture<AzuriteServer>
{
    public const string Name = "Azurite";
}

[CollectionDefinition(Name)]
public sealed class CosmosApiCollection : ICollectionFixture<CosmosApiServer>
{
    public const string Name = "Cosmos API server";
}
