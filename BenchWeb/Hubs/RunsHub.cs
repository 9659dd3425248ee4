using BenchWeb.Data;
using Microsoft.AspNetCore.SignalR;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Hubs;

/// <summary>Live seconds and status changes of runs, a group per run. A second is sent as it was saved
/// (<see cref="RunSecondEntity"/>), with the tiles' texts it leads to (<see cref="BenchWeb.Runs.RunTileTexts"/>). Jobs publish through
/// <see cref="IHubContext{THub}"/> (<see cref="RunUpdatePublisher"/>), so the publisher does not have to be the
/// instance a browser is connected to (shared mode adds a Redis backplane). A run spread over agents also sends each
/// agent's own seconds (<see cref="ShardSecondMessage"/>).</summary>
public sealed class RunsHub(IDbContextFactory<BenchDbContext> databases) : Hub
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
        await using var db = await databases.CreateDbContextAsync(Context.ConnectionAborted);
        return await db.RunSeconds.AsNoTracking()
            .Where(s => s.RunId == runId)
            .OrderBy(s => s.Index)
            .ToListAsync(Context.ConnectionAborted);
    }

    public Task LeaveRun(long runId) => Groups.RemoveFromGroupAsync(Context.ConnectionId, GroupFor(runId), Context.ConnectionAborted);
}
