using BenchWeb.Data;

namespace BenchWeb.Fleet;

/// <summary>Where an agent stands, from its heartbeat.</summary>
public enum AgentState
{
    /// <summary>Heartbeating: it takes runs.</summary>
    Alive,

    /// <summary>No heartbeat for longer than the installation allows: it died or lost the database; its runs are interrupted.</summary>
    Lost,

    /// <summary>It stopped in an orderly way.</summary>
    Stopped,
}

/// <summary>An agent as the dashboard lists it.</summary>
public sealed record AgentView(AgentEntity Agent, AgentState State, int ActiveRuns)
{
    public static AgentState StateOf(AgentEntity agent, DateTimeOffset now, TimeSpan lostAfter)
    {
        ArgumentNullException.ThrowIfNull(agent);
        return agent.StoppedAt is not null ? AgentState.Stopped
            : now - agent.LastHeartbeatAt > lostAfter ? AgentState.Lost
            : AgentState.Alive;
    }
}
