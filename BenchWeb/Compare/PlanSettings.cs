using BenchEngine.Running;

namespace BenchWeb.Compare;

/// <summary>
/// A plan's settings as the profile editor lays them out: which section each belongs to (target, workload, load,
/// client settings, stop, pass/fail, diagnostics) and whether it applies to the run at all. A form keeps what its user typed before
/// switching target, shape or load model; those values are in the snapshot but nothing read them, so neither the run
/// page nor a comparison shows them.
/// </summary>
public static class PlanSettings
{
    public const string Target = "Target";
    public const string Workload = "Workload";
    public const string Load = "Load";
    public const string Client = "Client settings";
    public const string Stop = "Stop";
    public const string PassFail = "Pass/fail";
    public const string Diagnostics = "Diagnostics";
    public const string Environment = "Client environment";

    /// <summary>Where a run came from (its metadata: commit, branch, build…): compared with the settings, set by no editor.</summary>
    public const string Metadata = "Run metadata";

    /// <summary>The sections in the editor's order, then the client environment and the run's metadata.</summary>
    public static IReadOnlyList<string> SectionOrder { get; } = [Target, Workload, Load, Client, Stop, PassFail, Diagnostics, Environment, Metadata];

    /// <summary>A field path as a flattened plan path: <c>Target.Cosmos.Bulk</c> → <c>target.cosmos.bulk</c>.</summary>
    public static string FlatPath(string fieldPath) => SettingLabels.FlatPath(fieldPath);

    /// <summary>The section of a flattened path (<c>target.cosmos.bulk</c> → "Client settings"): its setting's, or for the
    /// client environment and the run's metadata, theirs.</summary>
    public static string SectionOf(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (PlanSettingsCatalog.Find(path) is { } setting)
        {
            return Names[setting.Section];
        }

        return path.Split('.')[0] switch
        {
            "environment" => Environment,
            "metadata" => Metadata,
            _ => Target,
        };
    }

    private static readonly Dictionary<SettingSection, string> Names = new()
    {
        [SettingSection.Target] = Target,
        [SettingSection.Workload] = Workload,
        [SettingSection.Load] = Load,
        [SettingSection.Client] = Client,
        [SettingSection.Stop] = Stop,
        [SettingSection.PassFail] = PassFail,
        [SettingSection.Diagnostics] = Diagnostics,
    };

    /// <summary>Whether the setting at <paramref name="path"/> is read when <paramref name="plan"/> runs: as its setting says
    /// (<see cref="SettingDescriptor.AppliesTo"/>). A path no setting declares (a section another kind's module dropped) is
    /// shown when it is the run's own kind's.</summary>
    public static bool Applies(string path, RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(plan);
        return PlanSettingsCatalog.Find(path) is { } setting
            ? setting.AppliesTo(plan)
            : TargetSection(path) is not { } section || (string.Equals(section, plan.Target.Kind.Module.Section, StringComparison.OrdinalIgnoreCase) && plan.Target.Kind.Module.Applies(path, plan.Target));
    }

    /// <summary>The target section a flattened path is in (<c>target.cosmos.bulk</c> → <c>cosmos</c>); null for the target's own
    /// settings (kind, operation) and every other part of the plan.</summary>
    public static string? TargetSection(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var parts = path.Split('.');
        return parts.Length > 2 && parts[0] == "target" ? parts[1] : null;
    }

    /// <summary>A run's settings as labelled sections of those that apply, in the editor's order (for the run page).</summary>
    public static IReadOnlyList<PlanSettingsSection> Sections(string? planJson)
    {
        var rows = ConfigurationDiff.RowsOf([planJson], [null], differingOnly: false);
        return rows.GroupBy(r => r.Group)
            .OrderBy(g => Order(g.Key))
            .Select(g => new PlanSettingsSection(g.Key, [.. g]))
            .ToList();
    }

    /// <summary>Where a section comes in <see cref="SectionOrder"/>.</summary>
    public static int Order(string section) => SectionOrder.IndexOf(section) is >= 0 and var index ? index : SectionOrder.Count;

    private static int IndexOf(this IReadOnlyList<string> list, string item)
    {
        for (var i = 0; i < list.Count; i++)
        {
            if (list[i] == item)
            {
                return i;
            }
        }

        return -1;
    }
}
