using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Provenance;

namespace BenchWeb.Apis;

/// <summary>A sweep to launch: its base plan (a saved profile, or a plan given inline — one of the two) and its options.</summary>
public sealed record StartSweepRequest
{
    public long? ProfileId { get; init; }

    public RunPlan? Plan { get; init; }

    public SweepOptions? Sweep { get; init; }

    /// <summary>Where the sweep comes from (commit, branch, pipeline…), kept by every step's run; bounded as a run's
    /// metadata is. Optional.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;
}
