using BenchWeb.Configuration;
using BenchWeb.Data;
using BenchWeb.Execution;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Fleet;

/// <summary>Registers this instance as an agent (when it executes runs) and keeps its heartbeat; on every instance,
/// looks after the fleet: runs and shards whose agent stopped heartbeating are marked interrupted, so a dead agent never
/// leaves a run "running" for ever, and an instance starting never touches the runs the others execute.</summary>
public sealed partial class AgentHeartbeat(
    IDbContextFactory<BenchDbContext> databases,
    AgentIdentity agent,
    RunOwnership ownership,
    Live.RunUpdatePublisher publisher,
    IOptions<BenchWebOptions> options,
    TimeProvider time,
    ILogger<AgentHeartbeat> logger) : BackgroundService
{
    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        // Registered before Hangfire's server starts taking jobs: a job's agent is always known.
        if (options.Value.Agent.ExecutesRuns)
        {
            await using var db = await databases.CreateDbContextAsync(cancellationToken);
            var now = time.GetUtcNow();
            db.Agents.Add(new AgentEntity
            {
                Id = agent.Id,
                Name = agent.Name,
                Role = agent.Role.ToString(),
                Cores = agent.Cores,
                MemoryBytes = agent.MemoryBytes,
                Region = agent.Region,
                InstanceId = agent.InstanceId,
                Version = agent.Version,
                StartedAt = now,
                LastHeartbeatAt = now,
            });
            await db.SaveChangesAsync(cancellationToken);
            LogRegistered(logger, agent.Name, agent.Id);
            publisher.AgentsChanged();
        }

        await base.StartAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // A one-shot wait after each beat, not a periodic timer: a clock that jumps ahead (a laptop waking up, a test's fake
        // clock moved by a week) then gives one beat, not one for every period it skipped.
        var interval = TimeSpan.FromSeconds(options.Value.Agent.HeartbeatSeconds);
        while (true)
        {
            try
            {
                await BeatAsync(stoppingToken);
                await ownership.InterruptRunsOfGoneAgentsAsync(stoppingToken);
                // The agents' page shows each beat, and the agents found lost by it.
                publisher.AgentsChanged();
                await Task.Delay(interval, time, stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // The database may be away for a moment; the next beat tries again.
                LogBeatFailed(logger, ex);
                await Task.Delay(interval, time, stoppingToken).ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
            }
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (!options.Value.Agent.ExecutesRuns)
        {
            return;
        }

        try
        {
            await using var db = await databases.CreateDbContextAsync(cancellationToken);
            await db.Agents.Where(a => a.Id == agent.Id).ExecuteUpdateAsync(s => s.SetProperty(a => a.StoppedAt, time.GetUtcNow()), cancellationToken);
            publisher.AgentsChanged();
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Its heartbeat stops anyway: the others see it lost a little later.
            LogBeatFailed(logger, ex);
        }
    }

    private async Task BeatAsync(CancellationToken cancellationToken)
    {
        if (!options.Value.Agent.ExecutesRuns)
        {
            return;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        await db.Agents.Where(a => a.Id == agent.Id).ExecuteUpdateAsync(s => s.SetProperty(a => a.LastHeartbeatAt, time.GetUtcNow()), cancellationToken);
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Registered as agent {Name} ({AgentId})")]
    private static partial void LogRegistered(ILogger logger, string name, string agentId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The agent heartbeat or the check of the other agents failed; trying again at the next beat")]
    private static partial void LogBeatFailed(ILogger logger, Exception exception);
}
