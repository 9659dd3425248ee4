using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Data;

/// <summary>One run: the durable record of what was launched, where, and what it measured. The job
/// scheduler's storage is not the source of truth; this row is.</summary>
public sealed class RunEntity
{
    public long Id { get; set; }

    /// <summary>The profile it was launched from; null once that profile is deleted (the snapshot stays).</summary>
    public long? ProfileId { get; set; }

    public required string ProfileName { get; set; }

    /// <summary>The seed preset it was launched from, if any.</summary>
    public string? PresetId { get; set; }

    /// <summary>The plan exactly as launched. Later edits of the profile do not change it.</summary>
    public required string PlanJson { get; set; }

    public RunStatus Status { get; set; }

    /// <summary>The plan's target kind, as a column for filtering lists.</summary>
    public TargetKind TargetKind { get; set; }

    public DateTimeOffset QueuedAt { get; set; }

    public DateTimeOffset? StartedAt { get; set; }

    public DateTimeOffset? EndedAt { get; set; }

    /// <summary>Set when a user asks to cancel; the job, wherever it runs, polls it each second.</summary>
    public DateTimeOffset? CancelRequestedAt { get; set; }

    public string? JobId { get; set; }

    /// <summary>The installation's maximum duration, applied to a plan that gave none (its snapshot stays as written):
    /// the run stops there, as if the plan had said so.</summary>
    public double? DurationCapSeconds { get; set; }

    /// <summary>The installation's maximum documents, applied to a plan that gave no count.</summary>
    public long? DocumentCap { get; set; }

    public string? TargetDescription { get; set; }

    public bool TargetIsModel { get; set; }

    /// <summary>The target's provisioned RU/s, when it could be read (null: unknown, or no request units).</summary>
    public double? ProvisionedRequestUnits { get; set; }

    /// <summary><see cref="ProvisionedRequestUnits"/> is an autoscale maximum.</summary>
    public bool ProvisionedAutoscale { get; set; }

    /// <summary>Whether the target reports request units (Table Storage does not: its RU figures are "n/a"). Null for runs
    /// recorded before this was kept.</summary>
    public bool? RequestUnitsReported { get; set; }

    public string? EnvironmentJson { get; set; }

    public string? SummaryJson { get; set; }

    public string? StopReason { get; set; }

    public string? FailureReason { get; set; }

    public string? FirstError { get; set; }

    public long AbandonedRequests { get; set; }

    // Headline figures copied from the summary when the run ends, so lists sort and filter in the database.
    public double? ElapsedSeconds { get; set; }

    public double? AverageThroughput { get; set; }

    public double? P99LatencyMs { get; set; }

    public double? ThrottledFraction { get; set; }

    /// <summary>"Passed" or "Failed" when the plan has thresholds; null otherwise.</summary>
    public string? Verdict { get; set; }

    /// <summary>The verdict's checks as JSON.</summary>
    public string? VerdictJson { get; set; }

    /// <summary>The user's notes on this run.</summary>
    public string? Notes { get; set; }

    /// <summary>Tags, normalised to lower case and stored as <c>,a,b,</c> so a tag filter is one LIKE.</summary>
    public string? Tags { get; set; }

    /// <summary>Where the run came from (commit, branch, build, pipeline run…) as one compact JSON object of text values,
    /// written in one form only, so that a filter on one pair is one substring test; null for none.</summary>
    public string? MetadataJson { get; set; }

    /// <summary>A steady-state window chosen by the user (first and last second), instead of the detected one.</summary>
    public int? SteadyStateFirst { get; set; }

    public int? SteadyStateLast { get; set; }

    /// <summary>Set when the run was imported from another installation's export.</summary>
    public DateTimeOffset? ImportedAt { get; set; }

    /// <summary>Where an imported run came from (the exporting machine and time), as the export said.</summary>
    public string? ImportedFrom { get; set; }

    /// <summary>What makes an imported run the same run wherever it is exported from: its number where it ran, when it
    /// started and its target (<see cref="BenchWeb.Transfer.RunTransfer.ImportKeyOf"/>). Unique, so a run is imported once.</summary>
    public string? ImportKey { get; set; }

    /// <summary>The agent executing (or that executed) a run on one agent; null for a run spread over several (see
    /// <see cref="Shards"/>) and for runs recorded before agents existed.</summary>
    public string? AgentId { get; set; }

    /// <summary>How many agents the run is spread over: 1 for a run on one agent.</summary>
    public int ShardCount { get; set; } = 1;

    /// <summary>A run spread over agents: the common instant its shards start at.</summary>
    public DateTimeOffset? StartAt { get; set; }

    /// <summary>The sweep this run is a step of; null for a run on its own.</summary>
    public long? SweepId { get; set; }

    /// <summary>Its step's number in the sweep (from 0); null for a run on its own.</summary>
    public int? SweepStep { get; set; }

    public List<RunSecondEntity> Seconds { get; } = [];

    public List<RunShardEntity> Shards { get; } = [];

    /// <summary>The summary, once the run has ended.</summary>
    public RunSummary? ReadSummary() => SummaryJson is { } json ? JsonSerializer.Deserialize<RunSummary>(json, RunPlan.JsonOptions) : null;

    /// <summary>Queued or Running: the run may still change.</summary>
    public bool IsActive => Status is RunStatus.Queued or RunStatus.Running;
}
