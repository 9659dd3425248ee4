using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Profiles;

namespace BenchWeb.Apis;

/// <summary>A saved profile with its plan. Plans name their secrets; the values are never returned, nor a user name or
/// password an old plan's endpoint still carries (<see cref="ShownPlan"/>).</summary>
public sealed record ProfileResponse
{
    public long Id { get; init; }

    public string Name { get; init; } = "";

    public string? Description { get; init; }

    public string? PresetId { get; init; }

    public DateTimeOffset CreatedAt { get; init; }

    public DateTimeOffset UpdatedAt { get; init; }

    public RunPlan? Plan { get; init; }

    internal static ProfileResponse From(ProfileEntity profile) => new()
    {
        Id = profile.Id,
        Name = profile.Name,
        Description = profile.Description,
        PresetId = profile.PresetId,
        CreatedAt = profile.CreatedAt,
        UpdatedAt = profile.UpdatedAt,
        Plan = RunPlan.FromJson(ShownPlan.Json(profile.PlanJson)),
    };
}
