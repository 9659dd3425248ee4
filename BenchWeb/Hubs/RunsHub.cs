using BenchWeb.Data;
using BenchWeb.Live;
using Microsoft.AspNetCore.SignalR;

namespace BenchWeb.Hubs;

/// <summary>Live seconds and status changes of runs, a group per run; the seconds saved are read through the runs' read
/// side (<see cref="SavedSecondsReader"/>). A second is sent as it was saved
/// (<see cref="RunSecondEntity"/>), with the tiles' texts it leads to (<see cref="BenchWeb.Live.RunTileTexts"/>). Jobs publish through
/// <see cref="IHubContext{THub}"/> (<see cref="RunUpdatePublisher"/>), so the publisher does not have to be the
/// instance a browser is connected to (shared mode adds a Redis backplane). A run spread over agents also sends each
/// agent's own seconds (<see cref="ShardSecondMessage"/>).</summary>
public sealed class RunsHub(SavedSecondsReader read) : Hub
{
    public const string Path = "/hubs/runs";
    public const string SecondMessage = "second";
    public const string StatusMessage = "status";

    /// <summary>A run spread over agents: one agent's own second, as its agent saved it (<see cref="ShardSecond"/>).</summary>
    public const string ShardSecondMessage = "shardSecond";

    public static string GroupFor(long runId) => $"run-{runId}";

    /// <summary>Starts watching a run and returns every second saved so far. Joining the group first means
    /// a second closing meanwhile arrives live as well; the client merges by index.</summary>
    public async Task<IReadOnlyList<RunSecondEntity>> JoinRun(long runId)
    {
        await Groups.AddToGroupAsync(Context.ConnectionId, GroupFor(runId), Context.ConnectionAborted);
        return await read(runId, -1, null, int.MaxValue, Context.ConnectionAborted);
    }

    /// <summary>The most seconds <see cref="SecondsAfter"/> returns at once; a viewer further behind asks again from the
    /// last one it got.</summary>
    public const int MaxSecondsPerCall = 600;

    /// <summary>The seconds saved after second <paramref name="afterIndex"/> (-1: from the first), in order, at most
    /// <see cref="MaxSecondsPerCall"/>: a viewer that sees a gap in the indices it received (its connection dropped, or the
    /// backplane lost a message) fills it without reloading the page.</summary>
    /// <exception cref="HubException"><paramref name="afterIndex"/> is below -1.</exception>
    public async Task<IReadOnlyList<RunSecondEntity>> SecondsAfter(long runId, int afterIndex)
    {
        if (afterIndex < -1)
        {
            throw new HubException($"afterIndex must be -1 (from the first second) or a second's index; {afterIndex} is neither.");
        }

        return await read(runId, afterIndex, null, MaxSecondsPerCall, Context.ConnectionAborted);
    }

    public Task LeaveRun(long runId) => Groups.RemoveFromGroupAsync(Context.ConnectionId, GroupFor(runId), Context.ConnectionAborted);
}
