using BenchEngine.Running;
using BenchEngine.Sweeps;

namespace BenchWeb.Apis;

/// <summary>A sweep to launch: its base plan (a saved profile, or a plan given inline — one of the two) and its options.</summary>
public sealed record StartSweepRequest
{
    public long? ProfileId { get; init; }

    public RunPlan? Plan { get; init; }

    public SweepOptions? Sweep { get; init; }
}
