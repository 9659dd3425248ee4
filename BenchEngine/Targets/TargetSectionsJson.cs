using System.Text.Json.Serialization.Metadata;

namespace BenchEngine.Targets;

/// <summary>
/// How a plan writes its target (<see cref="Running.RunPlan.JsonOptions"/>): the kind, the settings every kind shares (the
/// operation) and the kind's own section (<see cref="TargetModule.Section"/>), not the sections of the kinds it does not use.
/// A stored Cosmos DB plan thus holds <c>kind</c>, <c>operation</c> and <c>cosmos</c>; the simulator's plan <c>simulator</c>;
/// the no-op target's no section at all.
/// </summary>
/// <remarks>The dashboard's HTTP API writes plans the same way, so a plan reads the same in a profile, a run, an export and
/// an answer of the API. Only writing changes: a plan that carries every section (every plan stored before) reads as it always did, each
/// section into its settings, and a request may still send any section. <see cref="TargetSettings"/> reads settings through
/// every section, so it writes them all.</remarks>
public static class TargetSectionsJson
{
    /// <summary>A contract modifier: on <see cref="TargetOptions"/>, a kind's section is written only when it is the options'
    /// own kind's. A property that is no kind's section is a setting every kind shares, and always written.</summary>
    public static void WriteOwnSectionOnly(JsonTypeInfo typeInfo)
    {
        ArgumentNullException.ThrowIfNull(typeInfo);
        if (typeInfo.Type != typeof(TargetOptions))
        {
            return;
        }

        var sections = TargetRegistry.All.Select(m => m.Section).OfType<string>().ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var property in typeInfo.Properties.Where(p => sections.Contains(p.Name)))
        {
            var section = property.Name;
            property.ShouldSerialize = (options, _) =>
                string.Equals(((TargetOptions)options).Kind.Module.Section, section, StringComparison.OrdinalIgnoreCase);
        }
    }
}
