using System.Text;
using System.Text.Json;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// The names people use for a plan's settings: the profile editor's labels, which the run page, comparisons and sweeps
/// (their form, step names, columns and reasons) show too. Each setting's name is its descriptor's
/// (<see cref="PlanSettingsCatalog"/>: the plan's own, and each target's from its module's fields); what is no setting (the
/// client environment) by the few names below, or by its property name in words (<c>processorCount</c> → "Processor count").
/// </summary>
public static class SettingLabels
{
    // The client environment a run records beside its plan: not settings, but compared and shown with them.
    private static readonly Dictionary<string, string> EnvironmentNames = new(StringComparer.Ordinal)
    {
        ["environment.totalMemoryBytes"] = "Memory",
        ["environment.runtime"] = ".NET runtime",
        ["environment.processArchitecture"] = "Architecture",
    };

    /// <summary>A field path as a flattened plan path: <c>Target.Cosmos.Bulk</c> → <c>target.cosmos.bulk</c>.</summary>
    public static string FlatPath(string fieldPath)
    {
        ArgumentNullException.ThrowIfNull(fieldPath);
        return string.Join('.', fieldPath.Split('.').Select(JsonNamingPolicy.CamelCase.ConvertName));
    }

    /// <summary>The target field at a field or flattened path; null for the plan's other settings.</summary>
    public static TargetField? FieldAt(string path) => PlanSettingsCatalog.Find(path)?.TargetField;

    /// <summary>A setting's label, by its field path (<c>Load.Concurrency</c>) or flattened path (<c>load.concurrency</c>):
    /// "Concurrency", "Connection mode", "Document size (bytes)".</summary>
    public static string Of(string path)
    {
        if (PlanSettingsCatalog.Find(path) is { } setting)
        {
            return setting.Label;
        }

        var flat = FlatPath(path);
        return EnvironmentNames.TryGetValue(flat, out var name) ? name : Humanize(flat[(flat.LastIndexOf('.') + 1)..]);
    }

    /// <summary>A label inside a sentence: "Connection mode" → "connection mode"; an abbreviation keeps its capitals
    /// ("RU/s", "Max P99 latency (ms)" → "max P99 latency (ms)").</summary>
    public static string InSentence(string label)
    {
        ArgumentNullException.ThrowIfNull(label);
        return label.Length > 1 && char.IsUpper(label[0]) && !char.IsUpper(label[1]) ? char.ToLowerInvariant(label[0]) + label[1..] : label;
    }

    /// <summary>"processorCount" → "Processor count".</summary>
    public static string Humanize(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var text = new StringBuilder(name.Length + 4);
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            if (i == 0)
            {
                text.Append(char.ToUpperInvariant(c));
            }
            else if (char.IsUpper(c))
            {
                text.Append(' ').Append(char.ToLowerInvariant(c));
            }
            else
            {
                text.Append(c);
            }
        }

        return text.ToString();
    }
}
