using System.Text;
using System.Text.Json;
using BenchEngine.Targets;

namespace BenchEngine.Running;

/// <summary>
/// The names people use for a plan's settings: the profile editor's labels, which the run page, comparisons and sweeps
/// (their form, step names, columns and reasons) show too. A target's settings are named by its module's fields; the rest
/// by the few names below, or by their property name in words (<c>batchSize</c> → "Batch size").
/// </summary>
public static class SettingLabels
{
    // Names people use for the settings whose property names say less than they should.
    private static readonly Dictionary<string, string> Names = new(StringComparer.Ordinal)
    {
        ["target.kind"] = "Target",
        ["target.operation"] = "Write operation",
        ["workload.shape"] = "Document shape",
        ["workload.targetSizeBytes"] = "Document size (bytes)",
        ["workload.csvPath"] = "CSV file",
        ["workload.seed"] = "Data seed",
        ["workload.partitionKey.strategy"] = "Partition key strategy",
        ["workload.partitionKey.field"] = "Partition key field",
        ["workload.partitionKey.keyCount"] = "Partition key count",
        ["workload.partitionKey.hotKeyFraction"] = "Hot key share",
        ["load.model"] = "Load model",
        ["load.ratePerSecond"] = "Rate (requests/s)",
        ["load.throttling.maxRetries"] = "Retries of a throttled request",
        ["load.throttling.sharedBackoff"] = "Shared back-off",
        ["load.throttling.baseDelayMs"] = "Back-off base delay (ms)",
        ["stop.durationSeconds"] = "Duration (s)",
        ["stop.autoStop.throttledFractionAbove"] = "Auto-stop: throttled share above",
        ["stop.autoStop.errorFractionAbove"] = "Auto-stop: error share above",
        ["stop.autoStop.windowSeconds"] = "Auto-stop window (s)",
        ["thresholds.maxP99LatencyMs"] = "Max P99 latency (ms)",
        ["thresholds.baselineRunId"] = "Baseline run",
        ["environment.totalMemoryBytes"] = "Memory",
        ["environment.runtime"] = ".NET runtime",
        ["environment.processArchitecture"] = "Architecture",
    };

    // Each target's settings, by flattened path (two kinds' fields of one path are one setting).
    private static readonly Dictionary<string, TargetField> Fields = TargetRegistry.All.SelectMany(m => m.Fields)
        .DistinctBy(f => f.Path)
        .ToDictionary(f => FlatPath(f.Path), StringComparer.Ordinal);

    /// <summary>A field path as a flattened plan path: <c>Target.Cosmos.Bulk</c> → <c>target.cosmos.bulk</c>.</summary>
    public static string FlatPath(string fieldPath)
    {
        ArgumentNullException.ThrowIfNull(fieldPath);
        return string.Join('.', fieldPath.Split('.').Select(JsonNamingPolicy.CamelCase.ConvertName));
    }

    /// <summary>The target field at a field or flattened path; null for the plan's other settings.</summary>
    public static TargetField? FieldAt(string path) => Fields.GetValueOrDefault(FlatPath(path));

    /// <summary>A setting's label, by its field path (<c>Load.Concurrency</c>) or flattened path (<c>load.concurrency</c>):
    /// "Concurrency", "Connection mode", "Document size (bytes)".</summary>
    public static string Of(string path)
    {
        var flat = FlatPath(path);
        return Names.TryGetValue(flat, out var name) ? name
            : Fields.TryGetValue(flat, out var field) ? field.Label
            : Humanize(flat[(flat.LastIndexOf('.') + 1)..]);
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
