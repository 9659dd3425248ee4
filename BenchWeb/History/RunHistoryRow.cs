using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Provenance;

namespace BenchWeb.History;

/// <summary>One run in the history list: the row's headline columns only (no plan, summary or seconds).</summary>
public sealed record RunHistoryRow
{
    public long Id { get; init; }

    public required string ProfileName { get; init; }

    public TargetKind TargetKind { get; init; }

    public string? TargetDescription { get; init; }

    public bool TargetIsModel { get; init; }

    public RunStatus Status { get; init; }

    public DateTimeOffset QueuedAt { get; init; }

    public double? ElapsedSeconds { get; init; }

    public double? AverageThroughput { get; init; }

    public double? P99LatencyMs { get; init; }

    public double? ThrottledFraction { get; init; }

    /// <summary>The run has figures: it ran for some time. A run that failed before its first second has none (older
    /// versions stored zeros for it, which would read as a measurement).</summary>
    public bool Measured => ElapsedSeconds > 0;

    public string? Verdict { get; init; }

    /// <summary>As stored (<c>,a,b,</c>); <see cref="RunTags.Parse"/> lists them.</summary>
    public string? Tags { get; init; }

    public bool HasNotes { get; init; }

    public DateTimeOffset? ImportedAt { get; init; }

    public string? ImportedFrom { get; init; }

    /// <summary>The sweep the run is a step of (its id, step number from 0 and name); null for a run on its own.</summary>
    public long? SweepId { get; init; }

    public int? SweepStep { get; init; }

    public string? SweepName { get; init; }

    /// <summary>Where the run came from, as stored (<see cref="Provenance.RunMetadata.FromStored"/> reads it).</summary>
    public string? MetadataJson { get; init; }
}
