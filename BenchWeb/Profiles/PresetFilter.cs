using BenchEngine.Presets;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>Which presets the list shows: those of one target, of one study, and holding every word of
/// <see cref="Text"/> (ignoring case) in their id, title, what they tell, summary, published figure or target's name.
/// Each part left empty matches every preset.</summary>
/// <param name="Target">A target kind's name (<c>BlobStorage</c>), or null for any.</param>
/// <param name="Study">A study's <see cref="PresetStudy.Ids"/>, or null for any.</param>
/// <param name="Text">Words to find, or null.</param>
public sealed record PresetFilter(string? Target = null, string? Study = null, string? Text = null)
{
    public bool IsEmpty => string.IsNullOrEmpty(Target) && string.IsNullOrEmpty(Study) && string.IsNullOrWhiteSpace(Text);

    public bool Matches(PresetEntry preset)
    {
        ArgumentNullException.ThrowIfNull(preset);
        if ((!string.IsNullOrEmpty(Target) && preset.Target.Kind.Name != Target) || (!string.IsNullOrEmpty(Study) && preset.Study.Ids != Study))
        {
            return false;
        }

        var words = (Text ?? "").Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var shown = string.Join(' ', preset.Id, preset.Title, preset.Tells, preset.Summary, preset.OriginalResult, preset.Target.DisplayName, preset.Study.Name);
        return words.All(w => shown.Contains(w, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>The matching presets by target (in the registry's order), then by study (in the design notes' order), each
    /// in its list's order; targets and studies with none left out.</summary>
    public IReadOnlyList<PresetGroup> Group(IEnumerable<PresetEntry> presets)
    {
        ArgumentNullException.ThrowIfNull(presets);
        var shown = presets.Where(Matches).ToList();
        return
        [
            .. TargetRegistry.All
                .Select(target => new PresetGroup(target, [
                    .. PresetStudy.All
                        .Select(study => new PresetStudyGroup(study, [.. shown.Where(p => p.Target.Kind == target.Kind && p.Study == study)]))
                        .Where(g => g.Presets.Count > 0)]))
                .Where(g => g.Studies.Count > 0),
        ];
    }
}
