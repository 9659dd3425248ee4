using BenchEngine.Running;
using BenchWeb.Configuration;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Fleet;

/// <summary>The fleet as the database knows it: every agent that registered, whether it is alive, and the runs it executes.</summary>
public sealed class AgentDirectory(IDbContextFactory<BenchDbContext> databases, RunningRunsPerAgentReader runningRuns, IOptions<BenchWebOptions> options, TimeProvider time)
{
    /// <summary>After how long without a heartbeat an agent is lost.</summary>
    public TimeSpan LostAfter => TimeSpan.FromSeconds(options.Value.Agent.LostAfterSeconds);

    /// <summary>Agents seen within the last day, or still alive, newest first: alive ones, then the rest.</summary>
    public async Task<IReadOnlyList<AgentView>> ListAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow();
        var since = now - TimeSpan.FromDays(1);
        var agents = await db.Agents.AsNoTracking().Where(a => a.LastHeartbeatAt >= since).ToListAsync(cancellationToken);
        var ids = agents.Select(a => a.Id).ToList();
        var single = (await runningRuns(ids, cancellationToken)).Select(r => new { Agent = r.Key, r.Value });
        var shards = await db.RunShards.Where(s => ids.Contains(s.AgentId) && s.Status == RunStatus.Running)
            .GroupBy(s => s.AgentId).Select(g => new { Agent = g.Key, Value = g.Count() }).ToListAsync(cancellationToken);
        var active = single.Concat(shards).GroupBy(x => x.Agent).ToDictionary(g => g.Key, g => g.Sum(x => x.Value), StringComparer.Ordinal);
        return [.. agents
            .Select(a => new AgentView(a, AgentView.StateOf(a, now, LostAfter), active.GetValueOrDefault(a.Id)))
            .OrderBy(v => v.State).ThenBy(v => v.Agent.Name, StringComparer.OrdinalIgnoreCase).ThenByDescending(v => v.Agent.StartedAt)];
    }

    /// <summary>The agents alive now, fewest running runs first (then by name): where a run spread over agents goes.</summary>
    public async Task<IReadOnlyList<AgentView>> AliveAsync(CancellationToken cancellationToken) =>
        [.. (await ListAsync(cancellationToken)).Where(v => v.State == AgentState.Alive).OrderBy(v => v.ActiveRuns).ThenBy(v => v.Agent.Name, StringComparer.OrdinalIgnoreCase)];

    /// <summary>The ids of agents that are lost or stopped, among those given.</summary>
    public async Task<HashSet<string>> GoneAsync(BenchDbContext db, IReadOnlyCollection<string> agentIds, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var now = time.GetUtcNow();
        var known = await db.Agents.AsNoTracking().Where(a => agentIds.Contains(a.Id)).ToListAsync(cancellationToken);
        var gone = known.Where(a => AgentView.StateOf(a, now, LostAfter) != AgentState.Alive).Select(a => a.Id).ToHashSet(StringComparer.Ordinal);

        // An agent with no row at all never registered in this database (or was removed): nobody executes its runs.
        gone.UnionWith(agentIds.Except(known.Select(a => a.Id), StringComparer.Ordinal));
        return gone;
    }
}
