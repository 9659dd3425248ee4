using BenchEngine.Targets;
using BenchWeb.Configuration;
using BenchWeb.Guard.Secrets;
using BenchWeb.Profiles;
using BenchWeb.Tests.Support.Components;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Secrets;

[UnitTest]
public sealed class SecretStoreTests
{
    [Fact]
    public async Task Resolver_OnlyGivesARunItsOwnProfilesSecrets()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var mine = await profiles.SaveAsync(0, ProfileForms.Draft("mine", TargetKind.TableStorage).WithNewSecret(ProfileForms.TablesConnectionString, "mine-secret"), TestActors.Admin, CancellationToken.None);
        var other = await profiles.SaveAsync(0, ProfileForms.Draft("other", TargetKind.TableStorage).WithNewSecret(ProfileForms.TablesConnectionString, "other-secret"), TestActors.Admin, CancellationToken.None);
        var store = context.Services.GetRequiredService<SecretStore>();

        var resolve = await store.CreateResolverAsync(mine, new BenchEngine.Running.RunPlan(), CancellationToken.None);

        Assert.Equal("mine-secret", resolve(SecretStore.NameFor(mine, "tables-connection-string")));
        Assert.Null(resolve(SecretStore.NameFor(other, "tables-connection-string")));
        Assert.Null((await store.CreateResolverAsync(null, new BenchEngine.Running.RunPlan(), CancellationToken.None))(SecretStore.NameFor(mine, "tables-connection-string")));
    }

    [Fact]
    public async Task Resolver_ReadsOnlyTheEnvironmentVariablesThePlansSecretSettingsMayName()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<SecretStore>();
        context.Services.GetRequiredService<IOptions<BenchWebOptions>>().Value.EnvironmentSecrets["BENCHWEB_TEST_SECRET"] =
            new() { Kind = "TableStorage", Setting = "Target.Tables.ConnectionStringSecret", Host = "acme.table.core.windows.net" };
        Environment.SetEnvironmentVariable("BENCHWEB_TEST_SECRET", "allowed");
        Environment.SetEnvironmentVariable("SOME_OTHER_HOST_SECRET", "not for profiles");
        try
        {
            var tables = new BenchEngine.Running.RunPlan { Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { ConnectionStringSecret = "BENCHWEB_TEST_SECRET" } } };
            var resolve = await store.CreateResolverAsync(null, tables, CancellationToken.None);
            Assert.Equal("allowed", resolve("BENCHWEB_TEST_SECRET"));
            Assert.Null(resolve("SOME_OTHER_HOST_SECRET"));

            // A variable is read only for the setting that names it: a Redis plan naming it gets nothing.
            var redis = new BenchEngine.Running.RunPlan { Target = new TargetOptions { Kind = TargetKind.Redis, Redis = new RedisOptions { Host = "cache.example.com", AccessKeySecret = "SOME_OTHER_HOST_SECRET" } } };
            Assert.Null((await store.CreateResolverAsync(null, redis, CancellationToken.None))("BENCHWEB_TEST_SECRET"));
            Assert.Null((await store.CreateResolverAsync(null, redis, CancellationToken.None))("SOME_OTHER_HOST_SECRET"));

            // One service's key never goes to another's host: the Redis access key may not name COSMOS_KEY, nor an unlisted
            // BENCHWEB_* variable; a key's own default is bound to no server until an administrator lists it with one.
            var cosmos = new TargetOptions { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = "https://acme.documents.azure.com:443/" } };
            var cosmosKey = TargetKind.CosmosSql.Module.FieldAt("Target.Cosmos.KeySecret")!;
            var redisKey = TargetKind.Redis.Module.FieldAt("Target.Redis.AccessKeySecret")!;
            var tablesString = TargetKind.TableStorage.Module.FieldAt("Target.Tables.ConnectionStringSecret")!;
            Assert.Contains("bound to no server", store.EnvironmentRefusal("COSMOS_KEY", cosmosKey, cosmos), StringComparison.Ordinal);
            Assert.False(store.IsAllowedEnvironmentVariable("COSMOS_KEY", redisKey, redis.Target));
            Assert.False(store.IsAllowedEnvironmentVariable("REDIS_ACCESS_KEY", redisKey, redis.Target));
            Assert.False(store.IsAllowedEnvironmentVariable("BENCHWEB_ANY", redisKey, redis.Target));
            Assert.False(store.IsAllowedEnvironmentVariable("BLOBS_CONNECTION_STRING", cosmosKey, cosmos));
            Assert.False(store.IsAllowedEnvironmentVariable("PATH", cosmosKey, cosmos));
            Assert.True(store.IsAllowedEnvironmentVariable("TABLES_CONNECTION_STRING", tablesString, tables.Target));
            Assert.False(store.IsAllowedEnvironmentVariable("BENCHWEB_TEST_SECRET", tablesString, tables.Target with { Kind = TargetKind.CosmosTable }));
        }
        finally
        {
            Environment.SetEnvironmentVariable("BENCHWEB_TEST_SECRET", null);
            Environment.SetEnvironmentVariable("SOME_OTHER_HOST_SECRET", null);
        }
    }

    [Fact]
    public async Task EnvironmentSecret_StandsOnlyForItsKindSettingAndServer_NamingItNeverItsValue()
    {
        await using var context = new BenchWebComponentContext();
        var store = context.Services.GetRequiredService<SecretStore>();
        var listed = context.Services.GetRequiredService<IOptions<BenchWebOptions>>().Value.EnvironmentSecrets;
        listed["BENCHWEB_TEST_KEY_NL"] = new() { Kind = "CosmosSql", Setting = "Target.Cosmos.KeySecret", Host = "acme-nl.documents.azure.com" };
        listed["BENCHWEB_TEST_REDIS"] = new() { Kind = "Redis", Setting = "Target.Redis.AccessKeySecret", Host = "acme.redis.cache.windows.net:6380" };
        listed["BENCHWEB_TEST_TABLES"] = new() { Kind = "TableStorage", Setting = "Target.Tables.ConnectionStringSecret", Host = "acme.table.core.windows.net" };
        Environment.SetEnvironmentVariable("BENCHWEB_TEST_KEY_NL", "the-cosmos-key-value");
        Environment.SetEnvironmentVariable("BENCHWEB_TEST_TABLES", "DefaultEndpointsProtocol=https;AccountName=evil;AccountKey=a2V5;TableEndpoint=https://evil.table.core.windows.net/;");
        try
        {
            var cosmosKey = TargetKind.CosmosSql.Module.FieldAt("Target.Cosmos.KeySecret")!;
            var redisKey = TargetKind.Redis.Module.FieldAt("Target.Redis.AccessKeySecret")!;
            var tablesString = TargetKind.TableStorage.Module.FieldAt("Target.Tables.ConnectionStringSecret")!;
            TargetOptions Cosmos(string endpoint) => new() { Kind = TargetKind.CosmosSql, Cosmos = new CosmosOptions { Endpoint = endpoint } };
            TargetOptions Redis(string host, int port) => new() { Kind = TargetKind.Redis, Redis = new RedisOptions { Host = host, Port = port } };

            // For its own setting and server only: another kind, another server, another port of a bound port are refused.
            Assert.Null(store.EnvironmentRefusal("BENCHWEB_TEST_KEY_NL", cosmosKey, Cosmos("https://acme-nl.documents.azure.com:443/")));
            var otherKind = store.EnvironmentRefusal("BENCHWEB_TEST_KEY_NL", redisKey, Redis("127.0.0.1", 6379));
            Assert.Equal("The environment secret BENCHWEB_TEST_KEY_NL is listed for Cosmos DB (SQL API)'s account key (Target.Cosmos.KeySecret): it may not stand for Azure Cache for Redis's access key (Target.Redis.AccessKeySecret).", otherKind);
            Assert.Equal("The environment secret BENCHWEB_TEST_KEY_NL is bound to acme-nl.documents.azure.com: it is not sent to evil.documents.azure.com.",
                store.EnvironmentRefusal("BENCHWEB_TEST_KEY_NL", cosmosKey, Cosmos("https://evil.documents.azure.com:443/")));
            Assert.Null(store.EnvironmentRefusal("BENCHWEB_TEST_REDIS", redisKey, Redis("acme.redis.cache.windows.net", 6380)));
            Assert.Contains("is bound to acme.redis.cache.windows.net:6380", store.EnvironmentRefusal("BENCHWEB_TEST_REDIS", redisKey, Redis("acme.redis.cache.windows.net", 6379)), StringComparison.Ordinal);

            // A connection string names its own server: one naming another than its bound host is refused.
            Assert.Contains("is not sent to evil.table.core.windows.net", store.EnvironmentRefusal("BENCHWEB_TEST_TABLES", tablesString, new TargetOptions { Kind = TargetKind.TableStorage }), StringComparison.Ordinal);
            Assert.DoesNotContain("the-cosmos-key-value", otherKind, StringComparison.Ordinal);
        }
        finally
        {
            Environment.SetEnvironmentVariable("BENCHWEB_TEST_KEY_NL", null);
            Environment.SetEnvironmentVariable("BENCHWEB_TEST_TABLES", null);
        }
    }

    [Fact]
    public void Options_AnEnvironmentSecretWithoutItsKindSettingOrHost_IsRefusedNamingIt()
    {
        var options = new BenchWebOptions();
        options.EnvironmentSecrets["BENCHWEB_KEY_NL"] = new() { Kind = "CosmosSql", Setting = "Target.Redis.AccessKeySecret" };
        options.EnvironmentSecrets["BENCHWEB_OK"] = new() { Kind = "Redis", Setting = "Target.Redis.AccessKeySecret", Host = "acme.redis.cache.windows.net:6380" };

        var errors = options.Validate(new System.ComponentModel.DataAnnotations.ValidationContext(options)).Select(e => e.ErrorMessage).ToList();

        Assert.Equal(
        [
            "BenchWeb:EnvironmentSecrets:BENCHWEB_KEY_NL:Setting must name the secret setting it stands for: Target.Cosmos.KeySecret.",
            "BenchWeb:EnvironmentSecrets:BENCHWEB_KEY_NL:Host must name the server the secret is bound to: a host name or host:port, e.g. acme.documents.azure.com.",
        ], errors);
    }

    [Fact]
    public async Task Clone_GetsItsOwnCopy_SoRemovingOneKeyLeavesTheOther()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var store = context.Services.GetRequiredService<SecretStore>();
        var source = await profiles.SaveAsync(0, ProfileForms.Draft("source", TargetKind.CosmosSql).WithNewSecret(ProfileForms.CosmosKey, "source-key").WithText(ProfileForms.CosmosEndpoint, "https://acme.documents.azure.com:443/"), TestActors.Admin, CancellationToken.None);

        var clone = (await profiles.CloneAsync(source, TestActors.Admin, CancellationToken.None))!.Value;
        var clonePlan = BenchEngine.Running.RunPlan.FromJson((await context.Services.GetRequiredService<ProfileReader>().FindAsync(clone, CancellationToken.None))!.PlanJson);
        Assert.Equal(SecretStore.NameFor(clone, "cosmos-key"), clonePlan.Target.Cosmos.KeySecret);
        Assert.Equal("source-key", (await store.CreateResolverAsync(clone, new BenchEngine.Running.RunPlan(), CancellationToken.None))(clonePlan.Target.Cosmos.KeySecret));

        await store.RemoveAsync(clonePlan.Target.Cosmos.KeySecret, TestActors.Admin, CancellationToken.None);
        await profiles.DeleteAsync(clone, TestActors.Admin, CancellationToken.None);

        Assert.Equal("source-key", (await store.CreateResolverAsync(source, new BenchEngine.Running.RunPlan(), CancellationToken.None))(SecretStore.NameFor(source, "cosmos-key")));
    }
}
