using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Provenance;

namespace BenchWeb.Apis;

/// <summary>A run in a list: status, times and headline figures.</summary>
public sealed record RunListItem
{
    public long Id { get; init; }

    public long? ProfileId { get; init; }

    public string ProfileName { get; init; } = "";

    public RunStatus Status { get; init; }

    public TargetKind TargetKind { get; init; }

    public DateTimeOffset QueuedAt { get; init; }

    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? EndedAt { get; init; }

    public double? ElapsedSeconds { get; init; }

    /// <summary>Documents per second (ok ÷ elapsed).</summary>
    public double? AverageThroughput { get; init; }

    public double? P99LatencyMs { get; init; }

    /// <summary>Throttled responses ÷ all responses (0.05 = 5 %).</summary>
    public double? ThrottledFraction { get; init; }

    /// <summary>"Passed" or "Failed" when the plan has thresholds.</summary>
    public string? Verdict { get; init; }

    public IReadOnlyList<string> Tags { get; init; } = [];

    /// <summary>Where the run came from (commit, branch, build, pipeline…); empty when nothing was said.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;

    public DateTimeOffset? ImportedAt { get; init; }

    /// <summary>The sweep this run is a step of; null for a run of its own.</summary>
    public long? SweepId { get; init; }

    /// <summary>Its step in that sweep, counted from 0 as the sweep's own steps are.</summary>
    public int? SweepStep { get; init; }

    internal static RunListItem From(RunEntity run) => new()
    {
        Id = run.Id,
        ProfileId = run.ProfileId,
        ProfileName = run.ProfileName,
        Status = run.Status,
        TargetKind = run.TargetKind,
        QueuedAt = run.QueuedAt,
        StartedAt = run.StartedAt,
        EndedAt = run.EndedAt,
        ElapsedSeconds = run.ElapsedSeconds,
        AverageThroughput = run.AverageThroughput,
        P99LatencyMs = run.P99LatencyMs,
        ThrottledFraction = run.ThrottledFraction,
        Verdict = run.Verdict,
        Tags = RunTags.Parse(run.Tags),
        Metadata = RunMetadata.FromStored(run.MetadataJson),
        ImportedAt = run.ImportedAt,
        SweepId = run.SweepId,
        SweepStep = run.SweepStep,
    };
}
