using BenchWeb.Profiles;

namespace BenchWeb.Tests.Support;

/// <summary>Fills a profile draft's target settings as a user types them, by field path.</summary>
internal static class ProfileForms
{
    /// <summary>A new profile's draft of this name and kind of target.</summary>
    public static ProfileDraft Draft(string name, BenchEngine.Targets.TargetKind kind) =>
        new(new BenchEngine.Running.RunPlan { Name = name, Target = new BenchEngine.Targets.TargetOptions { Kind = kind } });

    /// <summary>Types <paramref name="value"/> into the setting's text box.</summary>
    public static ProfileDraft WithText(this ProfileDraft draft, string path, string? value)
    {
        draft.Text(BenchEngine.Targets.TargetSettings.Field(path)!).Value = value;
        return draft;
    }

    /// <summary>Pastes a secret (a key, a connection string) to be stored with the profile.</summary>
    public static ProfileDraft WithNewSecret(this ProfileDraft draft, string path, string? value)
    {
        draft.NewSecret(BenchEngine.Targets.TargetSettings.Field(path)!).Value = value;
        return draft;
    }

    /// <summary>An Azure Cache for Redis profile whose access key an administrator stores for <c>bench.redis.cache.windows.net</c>.</summary>
    public static ProfileDraft RedisWithKey(string key) =>
        Draft("cache", BenchEngine.Targets.TargetKind.Redis)
            .WithText("Target.Redis.Host", "bench.redis.cache.windows.net")
            .WithNewSecret("Target.Redis.AccessKeySecret", key);

    /// <summary>The plan with its Redis host changed, as a Runner pointing a stored key at a server of their own would.</summary>
    public static BenchEngine.Running.RunPlan MovedTo(this BenchEngine.Running.RunPlan plan, string redisHost) =>
        plan with { Target = plan.Target with { Redis = plan.Target.Redis with { Host = redisHost } } };

    public const string TablesConnectionString = "Target.Tables.ConnectionStringSecret";

    public const string CosmosKey = "Target.Cosmos.KeySecret";

    public const string CosmosEndpoint = "Target.Cosmos.Endpoint";
}
