using BenchEngine.Running;

namespace BenchWeb.Apis;

/// <summary>A new profile: its name, an optional description, and the plan (secret names only, never values).</summary>
public sealed record CreateProfileRequest
{
    public string? Name { get; init; }

    public string? Description { get; init; }

    public RunPlan? Plan { get; init; }
}
