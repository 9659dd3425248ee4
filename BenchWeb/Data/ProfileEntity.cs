namespace BenchWeb.Data;

/// <summary>A saved test profile: a name and the engine's plan as JSON (the plan's own format, so a profile
/// file for the headless command and a stored profile are the same thing).</summary>
public sealed class ProfileEntity
{
    public long Id { get; set; }

    public required string Name { get; set; }

    public string? Description { get; set; }

    public required string PlanJson { get; set; }

    /// <summary>The seed preset this profile was copied from, if any.</summary>
    public string? PresetId { get; set; }

    public DateTimeOffset CreatedAt { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }
}
