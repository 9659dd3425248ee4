using BenchWeb.Fleet;
using BenchWeb.Guard.Security;
using BenchWeb.History;

namespace BenchWeb.Apis;

/// <summary>An agent as the API lists it.</summary>
public sealed record AgentResponse(
    string Id,
    string Name,
    string Role,
    AgentState State,
    int Cores,
    long MemoryBytes,
    string? Region,
    string? InstanceId,
    string? Version,
    DateTimeOffset StartedAt,
    DateTimeOffset LastHeartbeatAt,
    int ActiveRuns);

/// <summary>The fleet: <c>GET /api/agents</c>, and a run's per-agent rows, <c>GET /api/runs/{id}/agents</c>.</summary>
public static class AgentsApi
{
    public static IEndpointRouteBuilder MapAgentsApi(this IEndpointRouteBuilder endpoints)
    {
        endpoints.MapGet("/api/agents", async (AgentDirectory agents, CancellationToken cancellationToken) =>
                (await agents.ListAsync(cancellationToken)).Select(v => new AgentResponse(
                    v.Agent.Id, v.Agent.Name, v.Agent.Role, v.State, v.Agent.Cores, v.Agent.MemoryBytes, v.Agent.Region, v.Agent.InstanceId,
                    v.Agent.Version, v.Agent.StartedAt, v.Agent.LastHeartbeatAt, v.ActiveRuns)).ToList())
            .RequireAuthorization(Policies.Viewer)
            .WithTags("Agents")
            .WithName("ListAgents")
            .WithSummary("List the agents")
            .WithDescription("Every instance that executes runs and was heard from in the last day: Alive (heartbeating), Lost (silent for longer than the installation allows; its runs are interrupted) or Stopped.");

        endpoints.MapGet("/api/runs/{id:long}/agents", async Task<IResult> (long id, RunReader reader, CancellationToken cancellationToken) =>
                await reader.AgentsAsync(id, cancellationToken) is { } rows
                    ? TypedResults.Ok(rows)
                    : TypedResults.Problem(statusCode: StatusCodes.Status404NotFound, title: "No such run", detail: $"There is no run #{id}."))
            .RequireAuthorization(Policies.Viewer)
            .WithTags("Runs")
            .WithName("GetRunAgents")
            .WithSummary("A run's per-agent rows")
            .WithDescription("For a run spread over agents: each shard's agent, status, documents, throttles, errors, RU, throughput, p99 and busiest client CPU. Empty for a run on one agent.");
        return endpoints;
    }
}
