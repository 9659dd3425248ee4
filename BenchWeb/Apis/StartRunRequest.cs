using BenchEngine.Running;

namespace BenchWeb.Apis;

/// <summary>What to run: a saved profile, or a plan given inline — one of the two.</summary>
public sealed record StartRunRequest
{
    public long? ProfileId { get; init; }

    public RunPlan? Plan { get; init; }
}
