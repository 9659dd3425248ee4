using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Profiles;
using BenchWeb.Provenance;

namespace BenchWeb.Apis;

/// <summary>One run: its status and times, the target, how it ended, the summary, the verdict with each
/// check, the client environment and the plan as launched (secret names only).</summary>
public sealed record RunDetails
{
    public long Id { get; init; }

    public long? ProfileId { get; init; }

    public string ProfileName { get; init; } = "";

    public string? PresetId { get; init; }

    public RunStatus Status { get; init; }

    public TargetKind TargetKind { get; init; }

    public DateTimeOffset QueuedAt { get; init; }

    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? EndedAt { get; init; }

    public DateTimeOffset? CancelRequestedAt { get; init; }

    public string? TargetDescription { get; init; }

    /// <summary>True for the simulated Cosmos DB: a model of the service, not a measurement of Azure.</summary>
    public bool TargetIsModel { get; init; }

    public double? ProvisionedRequestUnits { get; init; }

    /// <summary>How many agents the run was spread over (1: one agent); the per-agent rows are at <c>/api/runs/{id}/agents</c>.</summary>
    public int Agents { get; init; } = 1;

    public string? StopReason { get; init; }

    public string? FailureReason { get; init; }

    public string? FirstError { get; init; }

    public long AbandonedRequests { get; init; }

    /// <summary>Seconds saved so far (all of them once the run has ended).</summary>
    public int SecondsRecorded { get; init; }

    public string? Notes { get; init; }

    public IReadOnlyList<string> Tags { get; init; } = [];

    /// <summary>Where the run came from (commit, branch, build, pipeline…); empty when nothing was said.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;

    public int? SteadyStateFirst { get; init; }

    public int? SteadyStateLast { get; init; }

    public DateTimeOffset? ImportedAt { get; init; }

    public string? ImportedFrom { get; init; }

    public RunSummary? Summary { get; init; }

    public Verdict? Verdict { get; init; }

    public ClientEnvironment? Environment { get; init; }

    public RunPlan? Plan { get; init; }

    internal static RunDetails From(RunEntity run, int secondsRecorded) => new()
    {
        Id = run.Id,
        ProfileId = run.ProfileId,
        ProfileName = run.ProfileName,
        PresetId = run.PresetId,
        Status = run.Status,
        TargetKind = run.TargetKind,
        QueuedAt = run.QueuedAt,
        StartedAt = run.StartedAt,
        EndedAt = run.EndedAt,
        CancelRequestedAt = run.CancelRequestedAt,
        TargetDescription = run.TargetDescription,
        TargetIsModel = run.TargetIsModel,
        ProvisionedRequestUnits = run.ProvisionedRequestUnits,
        Agents = run.ShardCount,
        StopReason = run.StopReason,
        // Texts stored before endpoints with a user name or password were refused may quote one.
        FailureReason = EndpointPolicy.WithoutUserInfoInText(run.FailureReason),
        FirstError = EndpointPolicy.WithoutUserInfoInText(run.FirstError),
        AbandonedRequests = run.AbandonedRequests,
        SecondsRecorded = secondsRecorded,
        Notes = run.Notes,
        Tags = RunTags.Parse(run.Tags),
        Metadata = RunMetadata.FromStored(run.MetadataJson),
        SteadyStateFirst = run.SteadyStateFirst,
        SteadyStateLast = run.SteadyStateLast,
        ImportedAt = run.ImportedAt,
        ImportedFrom = run.ImportedFrom,
        Summary = Read<RunSummary>(run.SummaryJson),
        Verdict = Read<Verdict>(run.VerdictJson),
        Environment = Read<ClientEnvironment>(run.EnvironmentJson),
        Plan = RunPlan.FromJson(ShownPlan.Json(run.PlanJson)),
    };

    private static T? Read<T>(string? json)
        where T : class => json is null ? null : JsonSerializer.Deserialize<T>(json, RunPlan.JsonOptions);
}
