using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;
using BenchWeb.Provenance;
using BenchWeb.Sweeps;

namespace BenchWeb.Apis;

/// <summary>A sweep: its status, its options, the steps that ran (each with its run's id and figures) and each series' knee.</summary>
public sealed record SweepDetails
{
    public long Id { get; init; }

    public long? ProfileId { get; init; }

    public string Name { get; init; } = "";

    public RunStatus Status { get; init; }

    public DateTimeOffset QueuedAt { get; init; }

    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? EndedAt { get; init; }

    public DateTimeOffset? CancelRequestedAt { get; init; }

    public string? StopReason { get; init; }

    public SweepOptions Sweep { get; init; } = new();

    /// <summary>Where the sweep came from (commit, branch, pipeline…), as launched; each step's run carries it too.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;

    /// <summary>The number of steps the sweep has (series × values); fewer run when it stops early or is cancelled.</summary>
    public int PlannedSteps { get; init; }

    public IReadOnlyList<SweepStepRow> Steps { get; init; } = [];

    /// <summary>One per series, once the sweep has ended.</summary>
    public IReadOnlyList<KneeResult> Knees { get; init; } = [];

    public static SweepDetails From(SweepEntity sweep, IReadOnlyList<RunEntity> runs)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        var options = sweep.ReadSweep();
        var knees = sweep.ReadKnees();
        return new SweepDetails
        {
            Id = sweep.Id,
            ProfileId = sweep.ProfileId,
            Name = sweep.Name,
            Status = sweep.Status,
            QueuedAt = sweep.QueuedAt,
            StartedAt = sweep.StartedAt,
            EndedAt = sweep.EndedAt,
            CancelRequestedAt = sweep.CancelRequestedAt,
            StopReason = sweep.StopReason,
            Sweep = options,
            Metadata = RunMetadata.FromStored(sweep.MetadataJson),
            PlannedSteps = options.Values.Count * options.Series.Count,
            Steps = SweepStepRow.From(options, runs, knees),
            Knees = knees,
        };
    }
}
