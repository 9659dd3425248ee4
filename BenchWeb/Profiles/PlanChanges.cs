using System.Text.Json.Nodes;

namespace BenchWeb.Profiles;

/// <summary>The settings two plans differ in, as the audit log records a profile's change: "Load.Concurrency: 10 → 20".
/// Plans hold only secrets' names, so every value may be shown.</summary>
public static class PlanChanges
{
    /// <summary>One "Field.Path: old → new" per changed setting, in the plan's order; "(none)" for an absent value.</summary>
    public static IReadOnlyList<string> Describe(string beforeJson, string afterJson)
    {
        var before = Flatten(JsonNode.Parse(beforeJson));
        var after = Flatten(JsonNode.Parse(afterJson));
        return [.. after.Keys.Concat(before.Keys).Distinct(StringComparer.Ordinal)
            .Where(path => before.GetValueOrDefault(path) != after.GetValueOrDefault(path))
            .Select(path => $"{path}: {before.GetValueOrDefault(path) ?? "(none)"} → {after.GetValueOrDefault(path) ?? "(none)"}")];
    }

    private static Dictionary<string, string> Flatten(JsonNode? root)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        void Walk(JsonNode? node, string path)
        {
            if (node is JsonObject obj)
            {
                foreach (var (name, child) in obj)
                {
                    // The plan's JSON is camelCase; field paths (as validation names them) are PascalCase.
                    var segment = name.Length == 0 ? name : char.ToUpperInvariant(name[0]) + name[1..];
                    Walk(child, path.Length == 0 ? segment : $"{path}.{segment}");
                }
            }
            else if (node is not null)
            {
                // Arrays (excluded paths) compare as a whole.
                values[path] = node.ToJsonString();
            }
        }

        Walk(root, "");
        return values;
    }
}
