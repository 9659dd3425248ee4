using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Azure Cache for Redis (or any Redis server), through StackExchange.Redis: one SET per document.</summary>
    public static TargetKind Redis { get; } = new("Redis");
}

public sealed partial record TargetOptions
{
    /// <summary>The Redis server, its access key and where the keys go.</summary>
    public RedisOptions Redis { get; init; } = new();
}

/// <summary>
/// Azure Cache for Redis: each document is one string key (the prefix and the document's id) holding the document's JSON.
/// Create is <c>SET … NX</c> (an existing key is an error, as a conflict is elsewhere), upsert a plain <c>SET</c>; a batch is
/// one pipeline of SETs, sent together and answered together, not a transaction: each SET lands or fails on its own.
/// </summary>
/// <remarks>
/// <para>Redis has no throttling: a cache that cannot keep up answers with errors (<c>OOM</c> when memory is full,
/// <c>BUSY</c> or <c>LOADING</c>) or lets requests time out, so every such answer counts as an error, never as a throttle,
/// and the engine does not retry it. Nothing else retries either: a write is never queued while the connection is down
/// (it fails at once), and a write in flight when the connection drops fails with it.</para>
/// <para>The endpoint policy and the allow-list know http and https URLs only, so the server is checked as one:
/// <c>https://host:port</c> with TLS, <c>http://host:port</c> without. Plain Redis is thereby allowed only on this machine,
/// like plain http, and an allow-list entry for a cache names its TLS port (<c>https://myname.redis.cache.windows.net:6380</c>).
/// Every connection the client opens is checked, not only the first.</para>
/// </remarks>
internal sealed class RedisModule : TargetModule, IServiceEndpoints, IClientConnection
{
    /// <summary>The most keys one pipelined batch carries.</summary>
    public const int MaxPipeline = 1_000;

    /// <summary>The longest key prefix.</summary>
    public const int MaxKeyPrefix = 100;

    /// <summary>The most databases a cache has (0–15).</summary>
    public const int Databases = 16;

    private const int MaxHost = 253;

    /// <summary>Redis stores strings up to 512 MB; a benchmark's documents stay within the engine's own 2 MiB.</summary>
    private static readonly ItemSizeLimit RedisValue = new("a Redis value", RunPlan.MaxDocumentBytes, CountsAsTableEntity: false, MaxPropertyChars: null);

    public override TargetKind Kind => TargetKind.Redis;

    public IReadOnlyList<string> ServiceHostPatterns { get; } =
        ["*.redis.cache.windows.net", "*.redis.cache.chinacloudapi.cn", "*.redis.cache.usgovcloudapi.net"];

    public override string DisplayName => "Azure Cache for Redis";

    public override string? ChoiceNote => "or any Redis server";

    public override TargetUnit Unit { get; } = new("key", "keys");

    public override string Section => "Redis";

    public override int MaxBatchSize => MaxPipeline;

    public override string BatchRefusal => $"A pipelined batch holds at most {MaxPipeline:N0} keys.";

    public override ItemSizeLimit ItemLimit => RedisValue;

    private static readonly TargetField Host =
        TargetField.Of(t => t.Redis.Host, "Host name", TargetInput.Text) with { Setting = "Host", Help = "e.g. myname.redis.cache.windows.net, or [::1] (no scheme or port)." };

    private static readonly TargetField Port =
        TargetField.Of(t => t.Redis.Port, "Port", TargetInput.WholeNumber) with { Min = 1, Max = 65_535, Help = "6380 is Azure's TLS port; 6379 is plain Redis." };

    private static readonly TargetField UseTls =
        TargetField.Of(t => t.Redis.UseTls, "Use TLS", TargetInput.Flag) with { Help = "Plain Redis (no TLS) only for a server on this machine." };

    private static readonly TargetField UseAccessKey =
        TargetField.Of(t => t.Redis.UseAccessKey, "Sign in with an access key", TargetInput.Flag) with { Help = "Off only for a server on this machine without a password." };

    private static readonly TargetField AccessKeySecret = TargetField.Of(t => t.Redis.AccessKeySecret, "Access key", TargetInput.Secret) with
    {
        SecretPurpose = "redis-access-key",
        SecretHolds = "the access key",
        AppliesWhen = o => o.Redis.UseAccessKey,
    };

    private static readonly TargetField Database =
        TargetField.Of(t => t.Redis.Database, "Database", TargetInput.WholeNumber) with { Min = 0, Max = Databases - 1, Help = "0–15; a clustered cache has database 0 only." };

    private static readonly TargetField KeyPrefix = TargetField.Of(t => t.Redis.KeyPrefix, "Key prefix", TargetInput.Text) with
    {
        Help = "Each key is the prefix and the document's id. The run's keys are counted by it: keep it apart from other data.",
    };

    private static readonly TargetField ConnectTimeoutMs =
        TargetField.Of(t => t.Redis.ConnectTimeoutMs, "Connect timeout (ms)", TargetInput.WholeNumber) with { ClientSetting = true, Min = 100, Max = 60_000 };

    private static readonly TargetField AcceptAnyServerCertificate = TargetField.Of(t => t.Redis.AcceptAnyServerCertificate, "Accept any server certificate", TargetInput.Flag) with
    {
        ClientSetting = true,
        Help = "Only for a server on this machine with a self-signed certificate.",
        AppliesWhen = o => o.Redis.UseTls,
    };

    private static readonly TargetField ProfileCommands = TargetField.Of(t => t.Redis.ProfileCommands, "Profile each command", TargetInput.Flag) with
    {
        ClientSetting = true,
        Help = "A slow request's diagnostics then show when its SET was queued, sent, answered and completed. Costs the client about 12 % more CPU a SET; pipelined batches are not profiled.",
    };

    public override IReadOnlyList<TargetField> Fields { get; } =
        [Host, Port, UseTls, UseAccessKey, AccessKeySecret, Database, KeyPrefix, ConnectTimeoutMs, AcceptAnyServerCertificate, ProfileCommands];

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new RedisTarget(options.Redis, context);

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var redis = options.Redis;
        var host = redis.Host;
        checks.Check(string.IsNullOrWhiteSpace(host), Host, "Give the cache's host name, e.g. myname.redis.cache.windows.net.");
        checks.Check(host is { Length: > 0 } && !IsHostName(host), Host,
            $"A host name or IP address of at most {MaxHost} characters, e.g. myname.redis.cache.windows.net: no scheme, port or path.");
        checks.Check(host is { Length: > 0 } && !host.StartsWith('[') && Uri.CheckHostName(host) == UriHostNameType.IPv6, Host,
            "Put an IPv6 address in square brackets, with the port in its own field: for [::1]:6379 the host is [::1] and the port 6379 "
            + "(without brackets a port typed after the address reads as part of it).");
        checks.CheckBounds(Port, redis.Port, "Between 1 and 65,535 (Azure: 6380 with TLS).");
        var local = host is { Length: > 0 } && EndpointPolicy.IsLoopback(host);
        checks.Check(!redis.UseTls && host is { Length: > 0 } && !local, UseTls,
            "Plain Redis (no TLS) is only for a server on this machine (localhost, 127.0.0.1, [::1]): turn TLS on (Azure listens with TLS on port 6380).");
        checks.Check(!redis.UseAccessKey && host is { Length: > 0 } && !local, UseAccessKey,
            "A cache on another machine needs its access key: only a server on this machine may run without a password.");
        if (redis.UseAccessKey)
        {
            checks.CheckSecretName(redis.AccessKeySecret, AccessKeySecret, "the access key", "REDIS_ACCESS_KEY");
        }

        checks.CheckBounds(Database, redis.Database, $"Between 0 and {Databases - 1} (a clustered cache has database 0 only).");
        checks.Check(!IsKeyPrefix(redis.KeyPrefix), KeyPrefix,
            $"1–{MaxKeyPrefix} letters, digits and : _ - . / (the run's keys are counted by this prefix, so it cannot be empty).");
        checks.CheckBounds(ConnectTimeoutMs, redis.ConnectTimeoutMs, "Between 100 and 60,000 ms.");
        checks.Check(redis.AcceptAnyServerCertificate && host is { Length: > 0 } && !local, AcceptAnyServerCertificate,
            "Only for a server on this machine (a self-signed certificate): a remote server's certificate is always checked.");
    }

    public override string Describe(TargetOptions options)
    {
        var redis = options.Redis;
        return string.Create(CultureInfo.InvariantCulture,
            $"{DisplayName}, {(redis.UseTls ? "TLS" : "no TLS")}, database {redis.Database}, keys {redis.KeyPrefix}*");
    }

    public string ConnectionText(TargetOptions options) => options.Redis.UseTls ? "TLS" : "no TLS";

    public TargetEndpoint? PlannedEndpoint(TargetOptions options) =>
        options.Redis is { Host: { } host } redis && IsHostName(host) && Port.Admits(redis.Port)
            && Uri.TryCreate($"{(redis.UseTls ? Uri.UriSchemeHttps : Uri.UriSchemeHttp)}://{host}:{redis.Port}/", UriKind.Absolute, out var endpoint)
            ? new(Host.Path, endpoint)
            : null;

    /// <summary>The URL the endpoint policy and the allow-list judge a Redis server by: https with TLS, http without.</summary>
    internal static Uri EndpointOf(string host, int port, bool useTls) =>
        new UriBuilder(useTls ? Uri.UriSchemeHttps : Uri.UriSchemeHttp, host, port).Uri;

    /// <summary>A DNS name or an IP address, nothing more; square brackets only around an IPv6 address.</summary>
    internal static bool IsHostName(string host) =>
        host.Length <= MaxHost && (host.StartsWith('[') && host.EndsWith(']') && host.Length > 2
            ? Uri.CheckHostName(host[1..^1]) == UriHostNameType.IPv6
            : !host.Contains('[') && !host.Contains(']') && Uri.CheckHostName(host) is UriHostNameType.Dns or UriHostNameType.IPv4 or UriHostNameType.IPv6);

    /// <summary>Letters, digits and <c>: _ - . /</c>: none of the characters SCAN's pattern gives a meaning to (<c>* ? [ ] \</c>).</summary>
    private static bool IsKeyPrefix(string? prefix) =>
        prefix is { Length: > 0 and <= MaxKeyPrefix } && prefix.All(c => char.IsAsciiLetterOrDigit(c) || c is ':' or '_' or '-' or '.' or '/');
}
