using BenchEngine.Presets;

namespace BenchWeb.Profiles;

/// <summary>One study's presets for a target.</summary>
public sealed record PresetStudyGroup(PresetStudy Study, IReadOnlyList<PresetEntry> Presets);
