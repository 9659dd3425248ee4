using BenchWeb.Uploads;

namespace BenchWeb.Profiles;

/// <summary>A profile draft whose every rule held when it was checked: its plan as checked (<see cref="CheckedWebPlan"/>),
/// its description, and the secrets typed into it. Only <see cref="ProfileDraft.Check"/> makes one, so saving it and
/// launching its plan check nothing again.</summary>
public sealed class CheckedDraft
{
    internal CheckedDraft(ProfileDraft draft, CheckedWebPlan plan)
    {
        Draft = draft;
        Plan = plan;
        Description = string.IsNullOrWhiteSpace(draft.Description) ? null : draft.Description.Trim();
        PresetId = draft.PresetId;
    }

    /// <summary>The draft it was checked from: what it holds besides the plan (the secrets typed into it).</summary>
    public ProfileDraft Draft { get; }

    /// <summary>The plan as checked: as stored, and as it runs.</summary>
    public CheckedWebPlan Plan { get; }

    public string? Description { get; }

    public string? PresetId { get; }
}
