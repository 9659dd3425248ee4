using BenchWeb.Data;
using BenchWeb.Hubs;
using Microsoft.AspNetCore.SignalR;

namespace BenchWeb.Live;

/// <summary>Sends a run's updates to everyone watching it: first to this instance's live feed (<see cref="LiveFeed"/>, which
/// the pages follow) and, in shared mode, to the other instances' (<see cref="RedisLiveRelay"/>), then to the hub's
/// external clients (SignalR .NET or JavaScript), with the same messages as ever.</summary>
public sealed partial class RunUpdatePublisher(IHubContext<RunsHub> hub, LiveFeed feed, ILogger<RunUpdatePublisher> logger, RedisLiveRelay? relay = null)
{
    /// <summary>Sends an update, logging instead of throwing when it cannot: watchers catch up from the database when they
    /// reconnect, and a run never fails for them.</summary>
    public async Task TryAsync(Func<RunUpdatePublisher, Task> send, long runId)
    {
        ArgumentNullException.ThrowIfNull(send);
        try
        {
            await send(this);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogPublishFailed(logger, ex, runId);
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}: pushing an update to watchers failed")]
    private static partial void LogPublishFailed(ILogger logger, Exception exception, long runId);

    /// <summary>A second as it was saved, and what the tiles say with it (null when the run's row could not be read).</summary>
    public Task SecondAsync(RunSecondEntity second, RunTileTexts? tiles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        Feed(new SecondSaved(second));
        return hub.Clients.Group(RunsHub.GroupFor(second.RunId)).SendAsync(RunsHub.SecondMessage, second, tiles, cancellationToken);
    }

    public Task ShardSecondAsync(ShardSecond second, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        Feed(new ShardSecondSaved(second));
        return hub.Clients.Group(RunsHub.GroupFor(second.RunId)).SendAsync(RunsHub.ShardSecondMessage, second, cancellationToken);
    }

    public Task StatusAsync(RunStatusChange change, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(change);
        Feed(new StatusChanged(change));
        return hub.Clients.Group(RunsHub.GroupFor(change.RunId)).SendAsync(RunsHub.StatusMessage, change, cancellationToken);
    }

    /// <summary>Slow requests a shard of the run kept and let go, once saved: the run page's panel follows them.</summary>
    public void SlowRequestsSaved(long runId, int shard, IReadOnlyList<RunDiagnosticEntity> added, IReadOnlyList<int> removed) =>
        Feed(new SlowRequestsSaved(runId, shard, added, removed));

    /// <summary>A sweep moved on (started, a step launched or ended, cancel asked, ended): its page reads it again.</summary>
    public void SweepChanged(long sweepId) => Feed(new SweepChanged(sweepId));

    /// <summary>An agent joined, beat or stopped: the agents' page reads the list again.</summary>
    public void AgentsChanged() => Feed(new AgentsChanged());

    private void Feed(LiveEvent update)
    {
        feed.Publish(update);
        relay?.Send(update);
    }
}
