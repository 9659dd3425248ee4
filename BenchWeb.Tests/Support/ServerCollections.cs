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

/// <summary>Tests that measure the process's memory run alone: other tests' allocations would count too.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryMeasurementCollection
{
    public const string Name = "Memory measurement";
}
