using System.Collections.Concurrent;
using System.Threading.Channels;

namespace BenchWeb.Live;

/// <summary>The live feed inside this instance: a page that watches something (a run, a sweep, the agents) subscribes to
/// its topic (<see cref="LiveTopic"/>) and reads its events in order; whoever changes it publishes once (a run's seconds and
/// status through <see cref="Live.RunUpdatePublisher"/>). In shared mode <see cref="RedisLiveRelay"/> carries the events
/// published on other instances (agents) into this one. No page polls the database.</summary>
/// <remarks>Publishing never waits for a watcher: each subscription buffers up to <see cref="Capacity"/> events, and one
/// that falls further behind is told it missed some (<see cref="LiveSubscription.Missed"/>) and reads the run again
/// from the database. Nothing a watcher does can slow or change a run.</remarks>
public sealed class LiveFeed
{
    /// <summary>Events a subscription holds before it is marked as having missed some: ten minutes of one run's seconds.</summary>
    public const int Capacity = 600;

    private readonly ConcurrentDictionary<string, ImmutableSubscribers> _subscribers = new(StringComparer.Ordinal);

    /// <summary>Starts following a topic: every event published under it from now on, in order.</summary>
    public LiveSubscription Subscribe(string topic)
    {
        var subscription = new LiveSubscription(topic, this);
        _subscribers.AddOrUpdate(topic, _ => new([subscription]), (_, list) => list.With(subscription));
        return subscription;
    }

    /// <summary>Hands an event to every subscriber of its topic in this instance; never waits.</summary>
    public void Publish(LiveEvent update)
    {
        ArgumentNullException.ThrowIfNull(update);
        Offer(update.Topic, update);
        if (update.AlsoTopic is { } also)
        {
            Offer(also, update);
        }
    }

    private void Offer(string topic, LiveEvent update)
    {
        if (_subscribers.TryGetValue(topic, out var list))
        {
            foreach (var subscription in list.Items)
            {
                subscription.Offer(update);
            }
        }
    }

    /// <summary>How many subscriptions follow the topic now (for tests and diagnostics).</summary>
    public int SubscribersOf(string topic) => _subscribers.TryGetValue(topic, out var list) ? list.Items.Length : 0;

    internal void Unsubscribe(LiveSubscription subscription)
    {
        while (_subscribers.TryGetValue(subscription.Topic, out var list))
        {
            var rest = list.Without(subscription);
            var replaced = rest.Items.Length == 0
                ? _subscribers.TryRemove(new KeyValuePair<string, ImmutableSubscribers>(subscription.Topic, list))
                : _subscribers.TryUpdate(subscription.Topic, rest, list);
            if (replaced)
            {
                return;
            }
        }
    }

    // Copy on write: publishing reads the array without a lock.
    private sealed record ImmutableSubscribers(LiveSubscription[] Items)
    {
        public ImmutableSubscribers With(LiveSubscription added) => new([.. Items, added]);

        public ImmutableSubscribers Without(LiveSubscription removed) => new(Array.FindAll(Items, s => s != removed));
    }
}

/// <summary>One watcher's view of a topic: its events in order (<see cref="FollowAsync"/>) until disposed.</summary>
public sealed class LiveSubscription : IDisposable
{
    private readonly Channel<LiveEvent> _events = Channel.CreateBounded<LiveEvent>(
        // Full: TryWrite refuses the event (nothing waits), and the subscription is marked as having missed it.
        new BoundedChannelOptions(LiveFeed.Capacity) { SingleReader = true, FullMode = BoundedChannelFullMode.Wait });

    private readonly LiveFeed _feed;
    private int _missed;

    internal LiveSubscription(string topic, LiveFeed feed)
    {
        Topic = topic;
        _feed = feed;
    }

    public string Topic { get; }

    /// <summary>How many events wait to be handed out: those that came before the watcher began to follow.</summary>
    public int Waiting => _events.Reader.Count;

    /// <summary>Whether events were dropped because this watcher fell <see cref="LiveFeed.Capacity"/> behind since it last
    /// asked; asking clears it. A watcher that missed some reads what it shows again.</summary>
    public bool Missed() => Interlocked.Exchange(ref _missed, 0) == 1;

    /// <summary>Hands each event to <paramref name="handle"/>, one at a time and in order, with whether events were missed
    /// before it (<see cref="Missed"/>), until the subscription is disposed or <paramref name="cancellationToken"/> is
    /// cancelled. A page passes a handler that runs on its own context (<c>InvokeAsync</c>).</summary>
    /// <returns>Null when it ended because the watcher left; otherwise the exception its handler threw, which ended it.</returns>
    public async Task<Exception?> FollowAsync(Func<LiveEvent, bool, Task> handle, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(handle);
        try
        {
            await foreach (var update in _events.Reader.ReadAllAsync(cancellationToken))
            {
                await handle(update, Missed());
            }

            return null;
        }
        catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or Microsoft.JSInterop.JSDisconnectedException)
        {
            return null;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return ex;
        }
    }

    internal void Offer(LiveEvent update)
    {
        if (!_events.Writer.TryWrite(update))
        {
            Volatile.Write(ref _missed, 1);
        }
    }

    public void Dispose()
    {
        _feed.Unsubscribe(this);
        _events.Writer.TryComplete();
    }
}
