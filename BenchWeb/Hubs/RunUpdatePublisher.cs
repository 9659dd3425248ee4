using BenchWeb.Data;
using BenchWeb.Runs;
using Microsoft.AspNetCore.SignalR;

namespace BenchWeb.Hubs;

/// <summary>Sends a run's updates to everyone watching it.</summary>
public sealed class RunUpdatePublisher(IHubContext<RunsHub> hub)
{
    /// <summary>A second as it was saved, and what the tiles say with it (null when the run's row could not be read).</summary>
    public Task SecondAsync(RunSecondEntity second, RunTileTexts? tiles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(second);
        return hub.Clients.Group(RunsHub.GroupFor(second.RunId)).SendAsync(RunsHub.SecondMessage, second, tiles, cancellationToken);
    }

    public Task StatusAsync(RunStatusChange change, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(change);
        return hub.Clients.Group(RunsHub.GroupFor(change.RunId)).SendAsync(RunsHub.StatusMessage, change, cancellationToken);
    }
}
