using BenchEngine.Running;
using BenchWeb.Provenance;

namespace BenchWeb.Apis;

/// <summary>What to run: a saved profile, or a plan given inline — one of the two; and where the run comes from.</summary>
public sealed record StartRunRequest
{
    public long? ProfileId { get; init; }

    public RunPlan? Plan { get; init; }

    /// <summary>Where the run comes from, e.g. <c>{"commit": "1a2b3c4", "branch": "main", "pipeline": "https://…"}</c>: at most
    /// 20 pairs, keys of 1–50 characters, values of at most 200, plain text. Optional.</summary>
    public RunMetadata Metadata { get; init; } = RunMetadata.Empty;
}
