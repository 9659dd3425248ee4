using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Running;

namespace BenchEngine.Targets;

/// <summary>The settings of <see cref="TargetOptions"/> by field path (<c>Target.Cosmos.KeySecret</c>), through the kinds'
/// declared fields (<see cref="TargetField"/>): what lets pages and services handle any target's settings (its secrets)
/// without knowing its options type. The length of every text and list is read from the plan's JSON form, which holds
/// each kind's section whatever it declares.</summary>
public static class TargetSettings
{
    // The plan's conventions, but every kind's section written (the settings of kinds a plan does not use are bounded too);
    // a double that is not finite (possible in a plan built in code, refused by its rules) is kept as "NaN" rather than
    // failing to be read.
    private static readonly JsonSerializerOptions Json = new(RunPlan.JsonOptions)
    {
        TypeInfoResolver = new System.Text.Json.Serialization.Metadata.DefaultJsonTypeInfoResolver(),
        NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <summary>The declared field at a field path, of whichever kind (two kinds' fields of one path are one setting); null
    /// when no kind declares it.</summary>
    public static TargetField? Field(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        return Fields.Value.GetValueOrDefault(path);
    }

    private static readonly Lazy<Dictionary<string, TargetField>> Fields = new(() =>
        TargetRegistry.All.SelectMany(m => m.Fields).DistinctBy(f => f.Path).ToDictionary(f => f.Path, StringComparer.OrdinalIgnoreCase));

    /// <summary>The setting's text (a secret's name, an endpoint); null when it is not text or no field is there.</summary>
    public static string? Text(TargetOptions options, string path) => Field(path)?.ValueIn(options) as string;

    /// <summary>The text a setting has by default (<c>Target.Redis.AccessKeySecret</c> → <c>REDIS_ACCESS_KEY</c>, the environment
    /// variable a secret is read from unless one is stored); null when it has none.</summary>
    public static string? DefaultText(string path) => Text(Defaults, path);

    private static readonly TargetOptions Defaults = new();

    /// <summary>Every text and list of the options, every kind's section included, by field path
    /// (<c>Target.Cosmos.Endpoint</c>): what bounds the settings of the kinds a plan does not use.</summary>
    public static IEnumerable<(string Path, int Length)> TextsAndLists(TargetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return TextsAndLists(JsonSerializer.SerializeToNode(options, Json), "Target").Select(t => (t.Path, t.Items ?? t.Text!.Length));
    }

    /// <summary>Every text of the options, every kind's section included, by field path, with its value.</summary>
    public static IEnumerable<(string Path, string Text)> Texts(TargetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return TextsAndLists(JsonSerializer.SerializeToNode(options, Json), "Target").Where(t => t.Text is not null).Select(t => (t.Path, t.Text!));
    }

    // Each text by its field path, and each list (with its count, then its items under the list's path).
    private static IEnumerable<(string Path, string? Text, int? Items)> TextsAndLists(JsonNode? node, string path) => node switch
    {
        JsonObject section => section.SelectMany(setting => TextsAndLists(setting.Value, $"{path}.{char.ToUpperInvariant(setting.Key[0])}{setting.Key[1..]}")),
        JsonArray items => items.SelectMany(item => TextsAndLists(item, path)).Prepend((path, null, items.Count)),
        JsonValue value when value.TryGetValue<string>(out var text) => [(path, text, null)],
        _ => [],
    };
}
