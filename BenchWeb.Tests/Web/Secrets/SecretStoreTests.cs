using BenchEngine.Targets;
using BenchWeb.Profiles;
using BenchWeb.Secrets;
using BenchWeb.Tests.Support.Components;
using Microsoft.Extensions.DependencyInjection;
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
        var mine = await profiles.SaveAsync(0, new ProfileForm { Name = "mine", TargetKind = TargetKind.TableStorage }.WithNewSecret(ProfileForms.TablesConnectionString, "mine-secret"), TestActors.Admin, CancellationToken.None);
        var other = await profiles.SaveAsync(0, new ProfileForm { Name = "other", TargetKind = TargetKind.TableStorage }.WithNewSecret(ProfileForms.TablesConnectionString, "other-secret"), TestActors.Admin, CancellationToken.None);
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

            // One service's key never goes to another's host: the Redis access key may not name COSMOS_KEY.
            var cosmosKey = TargetKind.CosmosSql.Module.FieldAt("Target.Cosmos.KeySecret")!;
            var redisKey = TargetKind.Redis.Module.FieldAt("Target.Redis.AccessKeySecret")!;
            Assert.True(store.IsAllowedEnvironmentVariable("COSMOS_KEY", cosmosKey));
            Assert.False(store.IsAllowedEnvironmentVariable("COSMOS_KEY", redisKey));
            Assert.True(store.IsAllowedEnvironmentVariable("REDIS_ACCESS_KEY", redisKey));
            Assert.True(store.IsAllowedEnvironmentVariable("BENCHWEB_ANY", redisKey));
            Assert.False(store.IsAllowedEnvironmentVariable("BLOBS_CONNECTION_STRING", cosmosKey));
            Assert.False(store.IsAllowedEnvironmentVariable("PATH", cosmosKey));
        }
        finally
        {
            Environment.SetEnvironmentVariable("BENCHWEB_TEST_SECRET", null);
            Environment.SetEnvironmentVariable("SOME_OTHER_HOST_SECRET", null);
        }
    }

    [Fact]
    public async Task Clone_GetsItsOwnCopy_SoRemovingOneKeyLeavesTheOther()
    {
        await using var context = new BenchWebComponentContext();
        var profiles = context.Services.GetRequiredService<ProfileService>();
        var store = context.Services.GetRequiredService<SecretStore>();
        var source = await profiles.SaveAsync(0, new ProfileForm { Name = "source", TargetKind = TargetKind.CosmosSql }.WithNewSecret(ProfileForms.CosmosKey, "source-key").WithText(ProfileForms.CosmosEndpoint, "https://acme.documents.azure.com:443/"), TestActors.Admin, CancellationToken.None);

        var clone = (await profiles.CloneAsync(source, TestActors.Admin, CancellationToken.None))!.Value;
        var clonePlan = BenchEngine.Running.RunPlan.FromJson((await profiles.FindAsync(clone, CancellationToken.None))!.PlanJson);
        Assert.Equal(SecretStore.NameFor(clone, "cosmos-key"), clonePlan.Target.Cosmos.KeySecret);
        Assert.Equal("source-key", (await store.CreateResolverAsync(clone, new BenchEngine.Running.RunPlan(), CancellationToken.None))(clonePlan.Target.Cosmos.KeySecret));

        await store.RemoveAsync(clonePlan.Target.Cosmos.KeySecret, TestActors.Admin, CancellationToken.None);
        await profiles.DeleteAsync(clone, TestActors.Admin, CancellationToken.None);

        Assert.Equal("source-key", (await store.CreateResolverAsync(source, new BenchEngine.Running.RunPlan(), CancellationToken.None))(SecretStore.NameFor(source, "cosmos-key")));
    }
}
