namespace BenchWeb.Tests.Support;

[CollectionDefinition(Name)]
public sealed class AzuriteCollection : ICollectionFixture<AzuriteServer>
{
    public const string Name = "Azurite";
}

/// <summary>Azurite's blob and queue services, for the Blob Storage and Queue Storage targets.</summary>
[CollectionDefinition(Name)]
public sealed class AzuriteBlobsAndQueuesCollection : ICollectionFixture<AzuriteBlobServer>, ICollectionFixture<AzuriteQueueServer>
{
    public const string Name = "Azurite blobs and queues";
}

[CollectionDefinition(Name)]
public sealed class CosmosApiCollection : ICollectionFixture<CosmosApiServer>
{
    public const string Name = "Cosmos API server";
}

[CollectionDefinition(Name)]
public sealed class RedisCollection : ICollectionFixture<RedisServer>
{
    public const string Name = "Redis";
}

/// <summary>Tests that measure the process's memory run alone: other tests' allocations would count too.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryMeasurementCollection
{
    public const string Name = "Memory measurement";
}

/// <summary>The dashboard in its own process and a Chromium driving it. Alone: the app, the browser and a run
/// compete for the same cores, and the tests wait on live updates.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class DashboardBrowserCollection : ICollectionFixture<DashboardBrowserFixture>
{
    public const string Name = "Dashboard in a browser";
}

/// <summary>Tests that watch every connection the process makes run alone: other tests' connections would count too.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ConnectionWatchCollection : ICollectionFixture<CosmosApiServer>
{
    public const string Name = "Connections watched";
}

/// <summary>Sign-in through a real OpenID Connect provider in a browser: alone, like the other browser tests.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class OpenIdConnectCollection : ICollectionFixture<OpenIdConnectFixture>
{
    public const string Name = "OpenID Connect in a browser";
}

/// <summary>Shared mode's fleet tests: each starts PostgreSQL, redis-server and two or three dashboard processes, enough to
/// slow whatever runs beside them. They run alone (after the parallel collections), with Azurite for the table runs.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class FleetCollection : ICollectionFixture<AzuriteServer>
{
    public const string Name = "Fleet (shared mode)";
}

/// <summary>Tests that count the plan checks of the process run alone: other tests' checks would count too.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class PlanValidationCollection
{
    public const string Name = "Plan checks counted";
}
