using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Sweeps;

namespace BenchWeb.Data;

/// <summary>One sweep: a base plan run once per step with one setting changed, each step an ordinary run (see
/// <see cref="RunEntity.SweepId"/>), all on the same client one after another.</summary>
public sealed class SweepEntity
{
    public long Id { get; set; }

    /// <summary>The profile it was launched from; null for a plan given directly, or once the profile is deleted.</summary>
    public long? ProfileId { get; set; }

    public required string Name { get; set; }

    /// <summary>The base plan exactly as launched.</summary>
    public required string PlanJson { get; set; }

    /// <summary>The sweep's options (<see cref="SweepOptions"/>) as JSON.</summary>
    public required string SweepJson { get; set; }

    /// <summary>Queued, Running, Completed, Cancelled or Failed.</summary>
    public RunStatus Status { get; set; }

    public DateTimeOffset QueuedAt { get; set; }

    public DateTimeOffset? StartedAt { get; set; }

    public DateTimeOffset? EndedAt { get; set; }

    /// <summary>Set when a user asks to cancel: the step running stops and no further step starts.</summary>
    public DateTimeOffset? CancelRequestedAt { get; set; }

    public string? JobId { get; set; }

    /// <summary>Who launched it (<see cref="Guard.Security.Actor"/> as JSON): each step is audited as launched by them.</summary>
    public string? LaunchedByJson { get; set; }

    /// <summary>Why it ended: "all 6 steps ran", an early stop, a cancellation, a failure.</summary>
    public string? StopReason { get; set; }

    /// <summary>Where the sweep came from (<see cref="Provenance.RunMetadata"/> as stored): each of its steps' runs carries it.</summary>
    public string? MetadataJson { get; set; }

    /// <summary>The knee of each series (<see cref="KneeResult"/> list) once the sweep has ended.</summary>
    public string? KneeJson { get; set; }

    /// <summary>Queued or Running: the sweep may still change.</summary>
    public bool IsActive => Status is RunStatus.Queued or RunStatus.Running;

    public SweepOptions ReadSweep() => JsonSerializer.Deserialize<SweepOptions>(SweepJson, RunPlan.JsonOptions)!;

    public IReadOnlyList<KneeResult> ReadKnees() => KneeJson is { } json ? JsonSerializer.Deserialize<List<KneeResult>>(json, RunPlan.JsonOptions) ?? [] : [];
}
