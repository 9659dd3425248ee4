using System.Globalization;
using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Profiles;

/// <summary>One-line descriptions of a plan's parts, for lists: targets by the names people use, counts with the
/// singular or plural they need.</summary>
public static class PlanText
{
    public static string Target(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var target = plan.Target;
        return target.Kind.Module.Describe(target) + $" · {target.Operation.ToString().ToLowerInvariant()}";
    }

    public static string Workload(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var workload = plan.Workload;
        var key = workload.PartitionKey is { } pk ? $", key: {Choice(pk.Strategy)}{(pk.Field is { } f ? $" ({f})" : "")}" : "";
        var file = workload.CsvFileId is { } id ? $" (uploaded file {id})" : "";
        return $"{Choice(workload.Shape)}{file}{key}";
    }

    /// <summary>The load model as people say it: "closed loop", "open loop, 10/s", "waves", "unbounded".</summary>
    public static string LoadModelName(LoadOptions load)
    {
        ArgumentNullException.ThrowIfNull(load);
        return load.Model switch
        {
            LoadModel.OpenLoop => Invariant($"open loop, {load.RatePerSecond:#,0.##}/s"),
            LoadModel.Waves => "waves",
            LoadModel.Unbounded => "unbounded",
            _ => "closed loop",
        };
    }

    public static string Load(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var load = plan.Load;
        var batch = load.BatchSize > 1 ? Invariant($", batches of {load.BatchSize}") : "";
        return load.Model switch
        {
            LoadModel.OpenLoop => Invariant($"open loop at {load.RatePerSecond:N0}/s (≤ {load.Concurrency:N0} in flight){batch}"),
            LoadModel.Waves => $"waves of {Count(load.Concurrency, "request")}{batch}",
            LoadModel.Unbounded => "every write at once (unbounded)",
            _ => $"{Count(load.Concurrency, "worker")}, closed loop{batch}",
        };
    }

    public static string Stop(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var stop = plan.Stop;
        // In what the target stores: documents, entities, blobs, messages or keys.
        var unit = plan.Target.Kind.Module.Unit;
        var parts = new List<string>();
        if (stop.TotalDocuments is { } total)
        {
            parts.Add(Count(total, unit));
        }

        if (stop.DocumentsPerWorker is { } perWorker)
        {
            parts.Add($"{Count(plan.Load.Concurrency, "worker")} × {Count(perWorker, unit)}");
        }

        if (stop.DurationSeconds is { } seconds)
        {
            parts.Add(Invariant($"{seconds:N0} s"));
        }
        else if (plan.Load.Stages.Count > 0)
        {
            parts.Add(Invariant($"{plan.Load.StagesSeconds:N0} s of stages"));
        }

        if (stop.AutoStop is not null)
        {
            parts.Add("auto-stop");
        }

        return parts.Count == 0 ? "end of file" : string.Join(" or ", parts);
    }

    /// <summary>"1 entity", "100,000 entities".</summary>
    public static string Count(long count, TargetUnit unit)
    {
        ArgumentNullException.ThrowIfNull(unit);
        return Invariant($"{count:N0} {(count == 1 ? unit.Singular : unit.Plural)}");
    }

    /// <summary>"1 worker", "10 workers", "100,000 documents".</summary>
    public static string Count(long count, string singular) =>
        Invariant($"{count:N0} {singular}{(count == 1 ? "" : "s")}");

    // Well-known abbreviations a choice's identifier spells in mixed case.
    private static readonly Dictionary<string, string> Abbreviations = new(StringComparer.Ordinal)
    {
        ["Dto"] = "DTO", ["Json"] = "JSON", ["Csv"] = "CSV",
    };

    /// <summary>A choice as people write it: <c>ClosedLoop</c> → "Closed loop", <c>SmallDto</c> → "Small DTO".</summary>
    public static string Choice<TEnum>(TEnum choice)
        where TEnum : struct, Enum => Choice(choice.ToString());

    /// <summary>A choice as people write it: <c>ClosedLoop</c> → "Closed loop", <c>SmallDto</c> → "Small DTO".</summary>
    public static string Choice(string identifier)
    {
        var words = System.Text.RegularExpressions.Regex.Matches(identifier, "[A-Z][a-z0-9]*|[a-z0-9]+", System.Text.RegularExpressions.RegexOptions.None, TimeSpan.FromSeconds(1))
            .Select(m => m.Value).ToList();
        if (words.Count == 0 || string.Concat(words) != identifier)
        {
            return identifier;
        }

        return string.Join(' ', words.Select((word, i) => Abbreviations.TryGetValue(word, out var abbreviation) ? abbreviation
            : i == 0 ? word : word.ToLowerInvariant()));
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
