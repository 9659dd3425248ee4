using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Live;

[UnitTest]
public sealed class LiveFeedTests
{
    [Fact]
    public async Task Publish_ReachesTheTopicsSubscribersInOrder_AndNoOtherTopic()
    {
        var feed = new LiveFeed();
        using var run1 = feed.Subscribe(LiveTopic.Run(1));
        using var run2 = feed.Subscribe(LiveTopic.Run(2));
        using var sweep1 = feed.Subscribe(LiveTopic.Sweep(1));

        feed.Publish(new SecondSaved(Second(1, 0)));
        feed.Publish(new StatusChanged(new RunStatusChange(1, RunStatus.Completed, null)));
        feed.Publish(new SweepChanged(1));

        Assert.Equal(["second 0", "status Completed"], await DrainAsync(run1, 2));
        Assert.Empty(await DrainAsync(run2, 0));
        Assert.Equal(["sweep 1"], await DrainAsync(sweep1, 1));
    }

    [Fact]
    public void Dispose_EndsTheSubscription_AndTheTopicIsForgotten()
    {
        var feed = new LiveFeed();
        var first = feed.Subscribe(LiveTopic.Agents);
        var second = feed.Subscribe(LiveTopic.Agents);
        Assert.Equal(2, feed.SubscribersOf(LiveTopic.Agents));

        first.Dispose();
        Assert.Equal(1, feed.SubscribersOf(LiveTopic.Agents));
        second.Dispose();
        Assert.Equal(0, feed.SubscribersOf(LiveTopic.Agents));

        // Nobody follows: publishing is a no-op, not an error.
        feed.Publish(new AgentsChanged());
    }

    [Fact]
    public async Task AWatcherThatFallsBehind_NeverHoldsThePublisherUp_AndIsToldItMissedEvents()
    {
        var feed = new LiveFeed();
        using var slow = feed.Subscribe(LiveTopic.Run(7));

        // Nobody reads: the publisher goes on regardless.
        for (var i = 0; i < LiveFeed.Capacity + 10; i++)
        {
            feed.Publish(new SecondSaved(Second(7, i)));
        }

        var seen = new List<(int Index, bool Missed)>();
        using var stop = new CancellationTokenSource();
        var following = slow.FollowAsync((update, missed) =>
        {
            seen.Add((((SecondSaved)update).Second.Index, missed));
            if (seen.Count == LiveFeed.Capacity)
            {
                stop.Cancel();
            }

            return Task.CompletedTask;
        }, stop.Token);

        Assert.Null(await following.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(Enumerable.Range(0, LiveFeed.Capacity), seen.Select(s => s.Index));
        // The first event read after the overflow says so (the page then reads the run again); only that one.
        Assert.Equal(1, seen.Count(s => s.Missed));
        Assert.True(seen[0].Missed);
    }

    [Fact]
    public async Task FollowAsync_AHandlerThatThrows_EndsTheFollowingWithItsError()
    {
        var feed = new LiveFeed();
        using var subscription = feed.Subscribe(LiveTopic.Run(3));
        feed.Publish(new SecondSaved(Second(3, 0)));

        var error = await subscription.FollowAsync((_, _) => throw new InvalidOperationException("the page broke"), CancellationToken.None)
            .WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal("the page broke", Assert.IsType<InvalidOperationException>(error).Message);
    }

    internal static RunSecondEntity Second(long runId, int index) => new()
    {
        RunId = runId,
        Index = index,
        ElapsedSeconds = index + 1,
        DurationSeconds = 1,
        Ok = 100,
        ClosedAt = new DateTimeOffset(2026, 11, 26, 9, 0, 0, TimeSpan.Zero).AddSeconds(index),
    };

    // The events the subscription holds now, as short texts (waits for `expected` of them, then for any more briefly).
    private static async Task<List<string>> DrainAsync(LiveSubscription subscription, int expected)
    {
        var seen = new List<string>();
        using var stop = new CancellationTokenSource(expected == 0 ? TimeSpan.FromMilliseconds(200) : TimeSpan.FromSeconds(30));
        await subscription.FollowAsync((update, _) =>
        {
            seen.Add(update switch
            {
                SecondSaved s => $"second {s.Second.Index}",
                StatusChanged s => $"status {s.Change.Status}",
                SweepChanged s => $"sweep {s.SweepId}",
                _ => update.GetType().Name,
            });
            if (seen.Count == expected)
            {
                stop.Cancel();
            }

            return Task.CompletedTask;
        }, stop.Token);
        return seen;
    }
}
