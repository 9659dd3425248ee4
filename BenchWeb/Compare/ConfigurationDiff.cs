using System.Globalization;
using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Profiles;
using BenchWeb.Provenance;

namespace BenchWeb.Compare;

/// <summary>
/// What differs between runs' settings (the plan as launched) and client environments. Each run's plan and
/// environment are flattened into path → display value (<c>load.concurrency</c> → <c>20</c>,
/// <c>environment.processorCount</c> → <c>2</c>); only paths whose values are not the same for every run are kept.
/// Runs of different profiles on different machines are the normal case, so a value one run lacks shows as "—".
/// Where each run came from (its metadata: <c>metadata.commit</c> → <c>1a2b3c4</c>) is compared too, in a section of its own.
/// </summary>
public sealed class ConfigurationDiff
{
    /// <summary>How a run without the value shows.</summary>
    public const string Missing = "—";

    private const string EnvironmentPrefix = "environment";

    private const string MetadataPrefix = "metadata.";

    private ConfigurationDiff(IReadOnlyList<ConfigurationDiffRow> rows) => Rows = rows;

    /// <summary>The values that differ, by section in the profile editor's order (<see cref="PlanSettings.SectionOrder"/>),
    /// then the client environment; within a section in the plan's order. A setting that does not apply to a run (a batch
    /// size for Cosmos DB for NoSQL, a rate for a closed loop) is "—" for it.</summary>
    public IReadOnlyList<ConfigurationDiffRow> Rows { get; }

    public static ConfigurationDiff Compare(IReadOnlyList<RunEntity> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var metadata = runs.Select(r => FlattenMetadata(r.MetadataJson)).ToList();
        return new ConfigurationDiff([.. RowsOf(runs.Select(r => r.PlanJson).ToList(), runs.Select(r => r.EnvironmentJson).ToList(), differingOnly: true)
            .Concat(RowsOf(metadata, differingOnly: true))
            .OrderBy(r => PlanSettings.Order(r.Group))]);
    }

    /// <summary>The settings and environment values of the runs that apply to them, every one or only those that differ.</summary>
    internal static List<ConfigurationDiffRow> RowsOf(IReadOnlyList<string?> plans, IReadOnlyList<string?> environments, bool differingOnly)
    {
        var settings = plans.Select(FlattenPlan).ToList();
        var clients = environments.Select(FlattenEnvironment).ToList();
        return [.. RowsOf(settings, differingOnly).Concat(RowsOf(clients, differingOnly)).OrderBy(r => PlanSettings.Order(r.Group))];
    }

    // A run's metadata as metadata.key → value, in its own order; an empty value shows as "(empty)", not as missing.
    private static Dictionary<string, string> FlattenMetadata(string? stored)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in RunMetadata.FromStored(stored).Pairs)
        {
            values.TryAdd(MetadataPrefix + key, value.Length == 0 ? "(empty)" : value);
        }

        return values;
    }

    /// <summary>A run's settings and environment as path → display value (what <see cref="Compare"/> compares).</summary>
    public static IReadOnlyDictionary<string, string> Flatten(string? planJson, string? environmentJson)
    {
        var values = new Dictionary<string, string>(FlattenPlan(planJson), StringComparer.Ordinal);
        foreach (var (path, value) in FlattenEnvironment(environmentJson))
        {
            values[path] = value;
        }

        return values;
    }

    private static List<ConfigurationDiffRow> RowsOf(List<Dictionary<string, string>> runs, bool differingOnly)
    {
        // Every path any run has, in the order first met (dictionaries keep insertion order while only added to).
        var paths = runs.SelectMany(r => r.Keys).Distinct(StringComparer.Ordinal);
        var rows = new List<ConfigurationDiffRow>();
        foreach (var path in paths)
        {
            var values = runs.Select(r => r.GetValueOrDefault(path) ?? Missing).ToList();
            var row = new ConfigurationDiffRow(path, PlanSettings.SectionOf(path), LabelOf(path), values);

            // One setting that two kinds of target keep in different places (the RU/s of a Cosmos DB plan and of the
            // simulator's) is one row where no run has both: two rows labelled "RU/s" in one section read as a mistake.
            var twin = rows.FindIndex(r => r.Group == row.Group && r.Label == row.Label
                && r.Values.Zip(values).All(pair => pair.First == Missing || pair.Second == Missing));
            if (twin >= 0)
            {
                rows[twin] = rows[twin] with { Values = [.. rows[twin].Values.Zip(values, (first, second) => first == Missing ? second : first)] };
            }
            else
            {
                rows.Add(row);
            }
        }

        return differingOnly ? [.. rows.Where(r => r.Values.Distinct(StringComparer.Ordinal).Skip(1).Any())] : rows;
    }

    private static Dictionary<string, string> FlattenPlan(string? json)
    {
        // Shown on the run page and in comparisons: an endpoint's user name or password is not.
        json = json is null ? null : ShownPlan.Json(json);
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        if (Parse(json) is not { } document)
        {
            return values;
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                return values;
            }

            var kind = root.TryGetProperty("target", out var target) && target.ValueKind == JsonValueKind.Object
                && target.TryGetProperty("kind", out var k) && k.ValueKind == JsonValueKind.String ? k.GetString() : null;
            foreach (var property in root.EnumerateObject())
            {
                // The run's name is its label, not a setting.
                if (!property.NameEquals("name"))
                {
                    Walk(property.Value, property.Name, values, kind);
                }
            }
        }

        if (ReadPlan(json) is { } plan)
        {
            foreach (var path in values.Keys.Where(path => !PlanSettings.Applies(path, plan)).ToList())
            {
                values.Remove(path);
            }

            values["target.kind"] = plan.Target.Kind.DisplayName();
        }

        return values;
    }

    // A plan this version cannot read (imported from another) still compares, setting by setting, unfiltered.
    private static RunPlan? ReadPlan(string? json)
    {
        try
        {
            return json is null ? null : RunPlan.FromJson(json);
        }
        catch (RunPlanValidationException)
        {
            return null;
        }
    }

    private static Dictionary<string, string> FlattenEnvironment(string? json)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        if (Parse(json) is { } document)
        {
            using (document)
            {
                Walk(document.RootElement, EnvironmentPrefix, values, kind: null);
            }
        }

        return values;
    }

    private static JsonDocument? Parse(string? json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return null;
        }

        try
        {
            return JsonDocument.Parse(json, new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip });
        }
        catch (JsonException)
        {
            // A damaged document compares as absent rather than failing the whole comparison.
            return null;
        }
    }

    private static void Walk(JsonElement element, string path, Dictionary<string, string> values, string? kind)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
                foreach (var property in element.EnumerateObject())
                {
                    var child = path + "." + property.Name;
                    if (Skipped(child, property.Name, kind))
                    {
                        continue;
                    }

                    Walk(property.Value, child, values, kind);
                }

                break;
            case JsonValueKind.Array when path == "load.stages":
                // A stage reads as a person would say it: "2 s at 2 workers; 3 s ramping to 8 workers".
                var stages = element.EnumerateArray().Select(StageText).ToList();
                values[path] = stages.Count == 0 ? "(none)" : string.Join("; ", stages);
                break;
            case JsonValueKind.Array:
                var items = element.EnumerateArray().Select(Display).ToList();
                values[path] = items.Count == 0 ? "(none)" : string.Join(", ", items);
                break;
            case JsonValueKind.Null or JsonValueKind.Undefined:
                break;
            default:
                values[path] = path == "environment.totalMemoryBytes" && element.TryGetInt64(out var bytes)
                    ? (bytes / (1024.0 * 1024 * 1024)).ToString("N1", CultureInfo.InvariantCulture) + " GiB"
                    : element.ValueKind == JsonValueKind.String && (ChoiceNames.Contains(path[(path.LastIndexOf('.') + 1)..]) || PlanSettingsCatalog.Find(path)?.TargetField?.Input == TargetInput.Choice)
                        ? PlanText.Choice(element.GetString() ?? "")
                    : element.ValueKind == JsonValueKind.Number && element.TryGetInt64(out var whole) && !path.StartsWith(EnvironmentPrefix, StringComparison.Ordinal)
                        ? whole.ToString("N0", CultureInfo.InvariantCulture)
                        : Display(element);
                break;
        }
    }

    private static string StageText(JsonElement stage)
    {
        if (stage.ValueKind != JsonValueKind.Object)
        {
            return Display(stage);
        }

        string? Number(string name) => stage.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number
            ? value.GetDouble().ToString("#,0.##", CultureInfo.InvariantCulture)
            : null;
        var seconds = Number("durationSeconds") ?? "?";
        var level = Number("concurrency") is { } workers ? $"{workers} workers" : Number("ratePerSecond") is { } rate ? $"{rate} requests/s" : "?";
        var linear = stage.TryGetProperty("ramp", out var ramp) && ramp.ValueKind == JsonValueKind.String && ramp.GetString() == "Linear";
        return linear ? $"{seconds} s ramping to {level}" : $"{seconds} s at {level}";
    }

    private static bool Skipped(string path, string name, string? kind) =>
        // Secret names say where a key is kept, not how the run was set up; computed flags repeat other values.
        name.EndsWith("Secret", StringComparison.OrdinalIgnoreCase)
        || name == "isEmpty"
        // A shard's own share (set in memory when a run is spread over agents) is not a setting of the plan.
        || name is "shard" or "shards"
        // Only the settings of the run's own kind of target apply; the others are unused defaults.
        || (path.Split('.') is ["target", var section] && TargetSections.Contains(section)
            && !string.Equals(section, new TargetKind(kind ?? "").Module.Section, StringComparison.OrdinalIgnoreCase));

    // The settings sections the targets add to a plan's target (cosmos, tables, simulator, blobs…).
    private static readonly HashSet<string> TargetSections = new(
        TargetRegistry.All.Where(m => m.Section is not null).Select(m => m.Section!), StringComparer.OrdinalIgnoreCase);

    // Settings whose value is one of a fixed set of choices, written in the plan as the choice's identifier.
    private static readonly HashSet<string> ChoiceNames = new(StringComparer.Ordinal)
    {
        "model", "shape", "strategy", "writeOperation",
    };

    private static string Display(JsonElement element) => element.ValueKind switch
    {
        JsonValueKind.String => element.GetString() ?? "",
        JsonValueKind.True => "yes",
        JsonValueKind.False => "no",
        JsonValueKind.Null => Missing,
        _ => element.GetRawText(),
    };

    private static string LabelOf(string path)
    {
        // A metadata key is free text: it is its own label, as its run page shows it.
        if (path.StartsWith(MetadataPrefix, StringComparison.Ordinal))
        {
            return path[MetadataPrefix.Length..];
        }

        if (path.StartsWith("environment.appService.", StringComparison.Ordinal))
        {
            return "App Service " + path["environment.appService.".Length..];
        }

        // A setting by its comparison name (two targets' "RU/s" share a row); what is no setting (the client environment)
        // by its name in words.
        return PlanSettingsCatalog.Find(path) is { } setting ? setting.Name : SettingLabels.Of(path);
    }
}
