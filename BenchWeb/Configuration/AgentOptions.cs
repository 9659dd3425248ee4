using System.ComponentModel.DataAnnotations;

namespace BenchWeb.Configuration;

/// <summary>What an instance does in a fleet (section <c>BenchWeb:Agent</c>).</summary>
public enum AgentRole
{
    /// <summary>Shows the dashboard and executes runs (the default, and the only role in embedded mode).</summary>
    All,

    /// <summary>Shows the dashboard only; runs execute on the agents (shared mode).</summary>
    Web,

    /// <summary>Executes runs only: no pages, no API; health probes answer (shared mode).</summary>
    Agent,
}

/// <summary>This instance as an agent: every instance that executes runs registers itself with a heartbeat, so the
/// dashboard lists the fleet, a run can be spread over several agents, and a run whose agent stopped is told apart from
/// one still running elsewhere.</summary>
public sealed class AgentOptions
{
    public AgentRole Role { get; set; } = AgentRole.All;

    /// <summary>The name the dashboard shows; default: the machine's name (on App Service, the instance's).</summary>
    [MaxLength(100)]
    public string? Name { get; set; }

    /// <summary>Where the agent runs (a region, a data centre); default: App Service's <c>REGION_NAME</c>.</summary>
    [MaxLength(100)]
    public string? Region { get; set; }

    /// <summary>How often the agent says it is alive (default 5 s).</summary>
    [Range(1, 300)]
    public int HeartbeatSeconds { get; set; } = 5;

    /// <summary>After how long without a heartbeat an agent counts as lost and its runs as interrupted (default 30 s).</summary>
    [Range(2, 3600)]
    public int LostAfterSeconds { get; set; } = 30;

    /// <summary>How far ahead a run spread over agents sets its common start, so every agent has its job and its target
    /// open by then (default 5 s). An agent that starts later joins at the second it is in.</summary>
    [Range(1, 300)]
    public int StartLeadSeconds { get; set; } = 5;

    /// <summary>Whether this instance executes runs.</summary>
    public bool ExecutesRuns => Role is AgentRole.All or AgentRole.Agent;

    /// <summary>Whether this instance serves the dashboard's pages and API.</summary>
    public bool ServesDashboard => Role is AgentRole.All or AgentRole.Web;
}
