using BenchWeb.Profiles;

namespace BenchWeb.Tests.Support;

/// <summary>Fills a profile form's target settings as a user types them, by field path.</summary>
internal static class ProfileForms
{
    /// <summary>Types <paramref name="value"/> into the setting's text box.</summary>
    public static ProfileForm WithText(this ProfileForm form, string path, string? value)
    {
        form.TargetFields[path].Text = value;
        return form;
    }

    /// <summary>Pastes a secret (a key, a connection string) to be stored with the profile.</summary>
    public static ProfileForm WithNewSecret(this ProfileForm form, string path, string? value)
    {
        form.TargetFields[path].NewSecret = value;
        return form;
    }

    /// <summary>An Azure Cache for Redis profile whose access key an administrator stores for <c>bench.redis.cache.windows.net</c>.</summary>
    public static ProfileForm RedisWithKey(string key) =>
        new ProfileForm { Name = "cache", TargetKind = BenchEngine.Targets.TargetKind.Redis }
            .WithText("Target.Redis.Host", "bench.redis.cache.windows.net")
            .WithNewSecret("Target.Redis.AccessKeySecret", key);

    /// <summary>The plan with its Redis host changed, as a Runner pointing a stored key at a server of their own would.</summary>
    public static BenchEngine.Running.RunPlan MovedTo(this BenchEngine.Running.RunPlan plan, string redisHost) =>
        plan with { Target = plan.Target with { Redis = plan.Target.Redis with { Host = redisHost } } };

    public const string TablesConnectionString = "Target.Tables.ConnectionStringSecret";

    public const string CosmosKey = "Target.Cosmos.KeySecret";

    public const string CosmosEndpoint = "Target.Cosmos.Endpoint";
}
