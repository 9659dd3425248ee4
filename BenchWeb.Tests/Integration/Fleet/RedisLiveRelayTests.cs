using BenchEngine.Running;
using BenchWeb.Configuration;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Web.Live;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Integration.Fleet;

/// <summary>Two instances' live feeds joined by their relays over a real Redis server: what one publishes reaches the
/// other's watchers, once, and never comes back to its own.</summary>
[IntegrationTest]
public sealed class RedisLiveRelayTests
{
    [Fact]
    public async Task AnEventPublishedOnOneInstance_ReachesTheOthersWatchers_AndNotItsOwnTwice()
    {
        var redis = await RedisServer.StartAsync();
        try
        {
            await RelayBetweenTwoInstancesAsync(redis);
        }
        finally
        {
            await redis.DisposeAsync();
        }
    }

    private static async Task RelayBetweenTwoInstancesAsync(RedisServer redis)
    {
        var shared = SharedModeOn(redis);
        var (feedA, feedB) = (new LiveFeed(), new LiveFeed());
        using var logs = new CapturedLogs();
        await using var relayA = new RedisLiveRelay(shared, feedA, new Logger<RedisLiveRelay>(new LoggerFactory([logs])));
        await using var relayB = new RedisLiveRelay(shared, feedB, new Logger<RedisLiveRelay>(new LoggerFactory([logs])));
        await relayA.StartAsync(CancellationToken.None);
        await relayB.StartAsync(CancellationToken.None);
        using var onA = feedA.Subscribe(LiveTopic.Run(5));
        using var onB = feedB.Subscribe(LiveTopic.Run(5));
        using var sweepOnB = feedB.Subscribe(LiveTopic.Sweep(2));
        using var agentsOnB = feedB.Subscribe(LiveTopic.Agents);

        // As the publisher does: to its own feed at once, and to the relay for the others.
        void Publish(LiveEvent update)
        {
            feedA.Publish(update);
            relayA.Send(update);
        }

        Publish(new SecondSaved(LiveFeedTests.Second(5, 0)));
        Publish(new StatusChanged(new RunStatusChange(5, RunStatus.Completed, "reached 1,000 documents")));
        var kept = BenchWeb.Data.RunDiagnosticEntity.From(5, 1, 7, new BenchEngine.Diagnostics.SlowRequest
        {
            Second = 3, LatencyMs = 212.5, StatusCode = 201, Target = "Cosmos DB", Summary = "201 ok · 212.5 ms", Text = "{\"name\":\"CreateItemStreamAsync\"}",
        });
        Publish(new SlowRequestsSaved(5, 1, [kept], [2]));
        Publish(new SweepChanged(2));
        Publish(new AgentsChanged());

        var onBEvents = await FirstAsync(onB, 3, logs);
        var second = Assert.IsType<SecondSaved>(onBEvents[0]).Second;
        Assert.Equal((5, 0, 100), (second.RunId, second.Index, second.Ok));
        Assert.Equal(new RunStatusChange(5, RunStatus.Completed, "reached 1,000 documents"), Assert.IsType<StatusChanged>(onBEvents[1]).Change);
        var slow = Assert.IsType<SlowRequestsSaved>(onBEvents[2]);
        Assert.Equal((5L, 1, 2), (slow.RunId, slow.Shard, Assert.Single(slow.Removed)));
        var arrived = Assert.Single(slow.Added);
        Assert.Equal((7, 3, 212.5, kept.Text), (arrived.Number, arrived.Second, arrived.LatencyMs, arrived.Text));
        Assert.Equal(2, Assert.IsType<SweepChanged>(Assert.Single(await FirstAsync(sweepOnB, 1))).SweepId);
        Assert.IsType<AgentsChanged>(Assert.Single(await FirstAsync(agentsOnB, 1)));

        // A's watcher got each event once: its own relay skipped them when Redis echoed them back. A marker published on B
        // after them, received on A, shows the echoes had their chance to arrive.
        feedB.Publish(new StatusChanged(new RunStatusChange(5, RunStatus.Cancelled, "marker")));
        relayB.Send(new StatusChanged(new RunStatusChange(5, RunStatus.Cancelled, "marker")));
        var onAEvents = await FirstAsync(onA, 4);
        Assert.Equal(["SecondSaved", "StatusChanged", "SlowRequestsSaved", "StatusChanged"], onAEvents.Select(e => e.GetType().Name));
        Assert.Equal("marker", ((StatusChanged)onAEvents[3]).Change.Message);
    }

    private static SharedMode SharedModeOn(RedisServer redis)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            // Read, never opened here.
            [$"ConnectionStrings:{SharedMode.DatabaseConnectionName}"] = "Host=127.0.0.1;Database=unused",
            [$"ConnectionStrings:{SharedMode.RedisConnectionName}"] = $"127.0.0.1:{redis.Port}",
        }).Build();
        return SharedMode.Read(configuration, new BenchWebOptions { Mode = DeploymentMode.Shared })!;
    }

    private static async Task<List<LiveEvent>> FirstAsync(LiveSubscription subscription, int count, CapturedLogs? logs = null)
    {
        var seen = new List<LiveEvent>();
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await subscription.FollowAsync((update, _) =>
        {
            seen.Add(update);
            if (seen.Count == count)
            {
                stop.Cancel();
            }

            return Task.CompletedTask;
        }, stop.Token);
        Assert.True(seen.Count == count, $"{seen.Count} of {count} event(s) arrived within 30 s. {string.Join(Environment.NewLine, logs?.Lines ?? [])}");
        Assert.True(logs is null || logs.Lines.Count == 0, string.Join(Environment.NewLine, logs?.Lines ?? []));
        return seen;
    }
}
