using Microsoft.AspNetCore.SignalR;

namespace BenchWeb.Hubs;

/// <summary>Sends a run's updates to everyone watching it.</summary>
public sealed class RunUpdatePublisher(IHubContext<RunsHub> hub)
{
    public Task SecondAsync(long runId, LiveSecond second, CancellationToken cancellationToken) =>
        hub.Clients.Group(RunsHub.GroupFor(runId)).SendAsync(RunsHub.SecondMessage, second, cancellationToken);

    public Task StatusAsync(RunStatusChange change, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(change);
        return hub.Clients.Group(RunsHub.GroupFor(change.RunId)).SendAsync(RunsHub.StatusMessage, change, cancellationToken);
    }
}
