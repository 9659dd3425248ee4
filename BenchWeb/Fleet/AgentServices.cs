using BenchWeb.Configuration;
using BenchWeb.Execution;

namespace BenchWeb.Fleet;

/// <summary>Registers the fleet's parts: this instance's identity, the directory of agents, the heartbeat that keeps both
/// current, and what executes and ends runs spread over agents (the job that runs a shard is registered with the other jobs).</summary>
public static class AgentServices
{
    public static IServiceCollection AddAgents(this IServiceCollection services, BenchWebOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        services.AddSingleton(new AgentIdentity(options.Agent));
        services.AddSingleton<AgentDirectory>();
        services.AddSingleton<DistributedRuns>();
        services.AddSingleton<RunOwnership>();
        services.AddSingleton<ShardExecutor>();

        // After the schema is brought up to date (RunRecoveryService), before Hangfire's server takes a job.
        services.AddHostedService<AgentHeartbeat>();
        return services;
    }
}
