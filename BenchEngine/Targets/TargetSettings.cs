using System.Text.Json;
using System.Text.Json.Nodes;
using BenchEngine.Running;

namespace BenchEngine.Targets;

/// <summary>Reads and changes one setting of <see cref="TargetOptions"/> by its field path (<c>Target.Cosmos.KeySecret</c>),
/// through the plan's own JSON form: what lets pages and services handle any target's settings (its secrets, its editor
/// fields) without knowing its options type.</summary>
public static class TargetSettings
{
    // The plan's conventions, but every kind's section written (a setting of another kind is read and changed here, and the
    // defaults of every kind's secrets come from here); a double that is not finite (possible in a plan built in code, refused
    // by its rules) is kept as "NaN" rather than failing to be read.
    private static readonly JsonSerializerOptions Json = new(RunPlan.JsonOptions)
    {
        TypeInfoResolver = new System.Text.Json.Serialization.Metadata.DefaultJsonTypeInfoResolver(),
        NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <summary>The options' JSON form, to read several settings with <see cref="Get(JsonObject, string)"/>.</summary>
    public static JsonObject Read(TargetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return JsonSerializer.SerializeToNode(options, Json)!.AsObject();
    }

    /// <summary>The setting's JSON value; null when it is not set or the path names nothing.</summary>
    public static JsonNode? Get(TargetOptions options, string path) => Get(Read(options), path);

    /// <summary>The setting's JSON value in the options' JSON form (<see cref="Read"/>); null when it is not set or the path
    /// names nothing.</summary>
    public static JsonNode? Get(JsonObject settings, string path)
    {
        ArgumentNullException.ThrowIfNull(settings);
        JsonNode? node = settings;
        foreach (var name in Names(path))
        {
            node = node is JsonObject section ? section[name] : null;
        }

        return node;
    }

    /// <summary>The setting's text (a secret's name, an endpoint); null when it is not text.</summary>
    public static string? Text(TargetOptions options, string path) =>
        Get(options, path) is JsonValue value && value.TryGetValue<string>(out var text) ? text : null;

    /// <summary>A copy of <paramref name="options"/> with the setting at <paramref name="path"/> set to <paramref name="value"/>
    /// (null: JSON null, for an optional setting left empty).</summary>
    /// <exception cref="JsonException">The value does not fit the setting.</exception>
    public static TargetOptions With(TargetOptions options, string path, JsonNode? value) =>
        WithAll(options, [new(path, value)]);

    /// <summary>A copy of <paramref name="options"/> with every setting in <paramref name="values"/> set.</summary>
    /// <exception cref="JsonException">A value does not fit its setting.</exception>
    public static TargetOptions WithAll(TargetOptions options, IEnumerable<KeyValuePair<string, JsonNode?>> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var root = Read(options);
        foreach (var (path, value) in values)
        {
            var names = Names(path);
            var section = root;
            foreach (var name in names[..^1])
            {
                section = section[name] as JsonObject ?? throw new JsonException($"There is no setting {path}.");
            }

            section[names[^1]] = value?.DeepClone();
        }

        return root.Deserialize<TargetOptions>(Json) ?? options;
    }

    /// <summary>Every text and list of the options, every kind's section included, by field path
    /// (<c>Target.Cosmos.Endpoint</c>): what bounds the settings of the kinds a plan does not use.</summary>
    public static IEnumerable<(string Path, int Length)> TextsAndLists(TargetOptions options) =>
        TextsAndLists(Read(options), "Target").Select(t => (t.Path, t.Items ?? t.Text!.Length));

    /// <summary>The text a setting has by default (<c>Target.Redis.AccessKeySecret</c> → <c>REDIS_ACCESS_KEY</c>, the environment
    /// variable a secret is read from unless one is stored); null when it has none.</summary>
    public static string? DefaultText(string path) => DefaultTexts.Value.GetValueOrDefault(path);

    private static readonly Lazy<Dictionary<string, string>> DefaultTexts = new(() =>
        TextsAndLists(Read(new TargetOptions()), "Target").Where(t => t.Text is not null)
            .DistinctBy(t => t.Path).ToDictionary(t => t.Path, t => t.Text!, StringComparer.OrdinalIgnoreCase));

    // Each text by its field path, and each list (with its count, then its items under the list's path).
    private static IEnumerable<(string Path, string? Text, int? Items)> TextsAndLists(JsonNode? node, string path) => node switch
    {
        JsonObject section => section.SelectMany(setting => TextsAndLists(setting.Value, $"{path}.{char.ToUpperInvariant(setting.Key[0])}{setting.Key[1..]}")),
        JsonArray items => items.SelectMany(item => TextsAndLists(item, path)).Prepend((path, null, items.Count)),
        JsonValue value when value.TryGetValue<string>(out var text) => [(path, text, null)],
        _ => [],
    };

    // "Target.Cosmos.KeySecret" → ["cosmos", "keySecret"]: the JSON names (camel case) below the target.
    private static string[] Names(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var parts = path.Split('.');
        var start = parts.Length > 0 && string.Equals(parts[0], "Target", StringComparison.OrdinalIgnoreCase) ? 1 : 0;
        return [.. parts[start..].Select(JsonNamingPolicy.CamelCase.ConvertName)];
    }
}
