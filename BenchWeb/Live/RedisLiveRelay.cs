using System.Text.Json;
using System.Text.Json.Serialization;
using BenchWeb.Configuration;
using BenchWeb.Data;
using StackExchange.Redis;

namespace BenchWeb.Live;

/// <summary>Shared mode: carries the live feed between instances over a Redis channel. An event published here goes to the
/// channel; one published on another instance (an agent running a shard, the instance that took a cancel) comes from it
/// into this instance's <see cref="LiveFeed"/>. An instance skips its own events, which it handed to its watchers at once.
/// A message Redis loses is a gap a watcher fills from the database (seconds) or its next status change (rows).</summary>
public sealed partial class RedisLiveRelay(SharedMode shared, LiveFeed feed, ILogger<RedisLiveRelay> logger) : IHostedService, IAsyncDisposable
{
    /// <summary>The Redis channel, beside the SignalR backplane's (which uses the prefix <c>BenchWeb</c> too).</summary>
    public static readonly RedisChannel Channel = RedisChannel.Literal("BenchWeb:live");

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { Converters = { new JsonStringEnumConverter() } };

    private readonly string _origin = Guid.NewGuid().ToString("N");
    private ConnectionMultiplexer? _redis;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var options = ConfigurationOptions.Parse(shared.RedisConfiguration);
        // Redis may start after this instance: the relay connects when it can, as the backplane does.
        options.AbortOnConnectFail = false;
        _redis = await ConnectionMultiplexer.ConnectAsync(options);
        // A queue, not a handler: a handler may run for several messages at once, and a watcher needs them in order.
        var queue = await _redis.GetSubscriber().SubscribeAsync(Channel);
        queue.OnMessage(message => Receive(message.Message));
    }

    /// <summary>Sends an event published on this instance to the others; never waits for Redis, never throws.</summary>
    public void Send(LiveEvent update)
    {
        ArgumentNullException.ThrowIfNull(update);
        if (_redis is not { } redis)
        {
            return;
        }

        var wire = update switch
        {
            SecondSaved s => new Wire(_origin) { Second = s.Second },
            StatusChanged s => new Wire(_origin) { Change = s.Change },
            ShardSecondSaved s => new Wire(_origin) { Shard = s.Second },
            SlowRequestsSaved s => new Wire(_origin) { SlowRequests = s },
            SweepChanged s => new Wire(_origin) { SweepId = s.SweepId },
            AgentsChanged => new Wire(_origin) { Agents = true },
            _ => throw new ArgumentOutOfRangeException(nameof(update), update.GetType().Name, "An event the relay cannot carry."),
        };

        try
        {
            redis.GetSubscriber().Publish(Channel, JsonSerializer.Serialize(wire, Json), CommandFlags.FireAndForget);
        }
        catch (RedisException ex)
        {
            LogSendFailed(logger, ex, update.Topic);
        }
    }

    private void Receive(RedisValue message)
    {
        try
        {
            if (message.IsNullOrEmpty || JsonSerializer.Deserialize<Wire>((string)message!, Json) is not { } wire || wire.Origin == _origin)
            {
                return;
            }

            LiveEvent? update = wire switch
            {
                { Second: { } second } => new SecondSaved(second),
                { Change: { } change } => new StatusChanged(change),
                { Shard: { } shard } => new ShardSecondSaved(shard),
                { SlowRequests: { } slow } => slow,
                { SweepId: { } sweepId } => new SweepChanged(sweepId),
                { Agents: true } => new AgentsChanged(),
                _ => null,
            };
            if (update is not null)
            {
                feed.Publish(update);
            }
        }
        catch (JsonException ex)
        {
            LogUnreadable(logger, ex);
        }
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_redis is { } redis)
        {
            await redis.GetSubscriber().UnsubscribeAsync(Channel);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_redis is { } redis)
        {
            await redis.DisposeAsync();
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Sending a live update of {Topic} to the other instances failed")]
    private static partial void LogSendFailed(ILogger logger, Exception exception, string topic);

    [LoggerMessage(Level = LogLevel.Warning, Message = "A live update from another instance could not be read; it is ignored")]
    private static partial void LogUnreadable(ILogger logger, Exception exception);

    // One of the events, with the instance it was published on.
    private sealed record Wire(string Origin)
    {
        public RunSecondEntity? Second { get; init; }

        public RunStatusChange? Change { get; init; }

        public ShardSecond? Shard { get; init; }

        public SlowRequestsSaved? SlowRequests { get; init; }

        public long? SweepId { get; init; }

        public bool Agents { get; init; }
    }
}
