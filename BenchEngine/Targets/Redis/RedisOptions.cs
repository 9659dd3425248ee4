namespace BenchEngine.Targets;

/// <summary>Settings for Azure Cache for Redis (or any Redis server): where it listens, how to sign in, and where the keys go.</summary>
public sealed record RedisOptions
{
    /// <summary>The cache's host name, e.g. <c>myname.redis.cache.windows.net</c>: no scheme, port or path.</summary>
    public string? Host { get; init; }

    /// <summary>6380: Azure Cache for Redis's TLS port (its plain port 6379 is off unless enabled).</summary>
    public int Port { get; init; } = 6380;

    /// <summary>Connect with TLS. Plain Redis is only for a server on this machine.</summary>
    public bool UseTls { get; init; } = true;

    /// <summary>Sign in with the access key in <see cref="AccessKeySecret"/>. Off only for a server on this machine without
    /// a password.</summary>
    public bool UseAccessKey { get; init; } = true;

    /// <summary>Name of the secret that holds the access key (the cache's primary or secondary key). The key itself is never
    /// part of a plan.</summary>
    public string AccessKeySecret { get; init; } = "REDIS_ACCESS_KEY";

    /// <summary>The database number, 0–15 (a clustered cache has database 0 only).</summary>
    public int Database { get; init; }

    /// <summary>Put before each document's id to make its key; the run's keys are counted by it, so it keeps them apart
    /// from other data in the cache.</summary>
    public string KeyPrefix { get; init; } = "benchweb:";

    /// <summary>Accept any TLS certificate. Only for a server on this machine with a self-signed certificate.</summary>
    public bool AcceptAnyServerCertificate { get; init; }

    /// <summary>How long connecting (TLS and sign-in included) may take before the run fails to open its target.</summary>
    public int ConnectTimeoutMs { get; init; } = 5_000;

    /// <summary>Have StackExchange.Redis profile each single-key SET, so that a slow request's diagnostics show when it was
    /// queued, sent, answered and completed. Off by default: the profile costs the client about 1.5 µs of CPU a SET, some
    /// 12 % of what the client spends on one (measured with <c>tools/bench.sh redis-peer</c>).</summary>
    public bool ProfileCommands { get; init; }
}
