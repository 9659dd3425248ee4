namespace BenchWeb.Data;

/// <summary>One instance that executes runs, as it registered itself: a row per process start (a restarted instance is
/// a new agent), kept alive by its heartbeat.</summary>
public sealed class AgentEntity
{
    public const int MaxIdLength = 40;

    /// <summary>Random, per process start; also names the agent's own job queue.</summary>
    public required string Id { get; set; }

    public required string Name { get; set; }

    /// <summary><c>All</c> or <c>Agent</c> (see <see cref="Configuration.AgentRole"/>).</summary>
    public required string Role { get; set; }

    public int Cores { get; set; }

    /// <summary>Memory the process may use, in bytes.</summary>
    public long MemoryBytes { get; set; }

    public string? Region { get; set; }

    /// <summary>App Service's instance id (<c>WEBSITE_INSTANCE_ID</c>), when it runs there.</summary>
    public string? InstanceId { get; set; }

    /// <summary>The BenchWeb version it runs.</summary>
    public string? Version { get; set; }

    public DateTimeOffset StartedAt { get; set; }

    public DateTimeOffset LastHeartbeatAt { get; set; }

    /// <summary>Set when the instance stopped in an orderly way; a lost one only stops heartbeating.</summary>
    public DateTimeOffset? StoppedAt { get; set; }

    /// <summary>The Hangfire queue only this agent takes jobs from (a shard of a run spread over agents).</summary>
    public string Queue => QueueOf(Id);

    public static string QueueOf(string agentId) => "agent-" + agentId;

    /// <summary>The first characters of an agent's id, shown beside its name: two machines may share a name (every App
    /// Service instance, or two VMs called "vm"); the log says the same id when the agent registers.</summary>
    public static string ShortId(string agentId)
    {
        ArgumentNullException.ThrowIfNull(agentId);
        return agentId[..Math.Min(8, agentId.Length)];
    }
}
