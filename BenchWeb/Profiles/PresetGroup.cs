using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>One target's presets, by study.</summary>
public sealed record PresetGroup(TargetModule Target, IReadOnlyList<PresetStudyGroup> Studies)
{
    public int Count => Studies.Sum(s => s.Presets.Count);
}
