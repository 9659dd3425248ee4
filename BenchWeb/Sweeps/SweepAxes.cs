using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchWeb.Compare;
using BenchWeb.Profiles;

namespace BenchWeb.Sweeps;

/// <summary>
/// The settings a sweep of a plan may change: those its runs read. A target's settings only for its own kind (no Cosmos DB
/// client setting on a simulator or Table Storage profile), whatever else it has set (gateway max connections stays on
/// offer for a Direct profile, whose sweep may set Gateway as a series); the others as the run page decides
/// (<see cref="PlanSettings.Applies"/>: a rate for an open loop, a batch size for a target that takes batches).
/// </summary>
public static class SweepAxes
{
    /// <summary>The sweepable settings that apply to <paramref name="plan"/>, in <see cref="SweepOptions.SweepableSettings"/>' order.</summary>
    public static IReadOnlyList<string> For(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return [.. SweepOptions.SweepableSettings.Where(s => Applies(s, plan))];
    }

    /// <summary>Whether a sweep of <paramref name="plan"/> may change <paramref name="setting"/> (a field path).</summary>
    public static bool Applies(string setting, RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var path = PlanSettings.FlatPath(setting);
        return PlanSettings.TargetSection(path) is { } section
            ? string.Equals(section, plan.Target.Kind.Module.Section, StringComparison.OrdinalIgnoreCase)
            : PlanSettings.Applies(path, plan);
    }

    /// <summary>The swept or series setting that a run of <paramref name="plan"/> would not read, by field, in words.</summary>
    public static IReadOnlyList<FieldError> Errors(SweepOptions sweep, RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        ArgumentNullException.ThrowIfNull(plan);
        return [.. new[] { ("Sweep.Setting", sweep.Setting), ("Sweep.SeriesSetting", sweep.SeriesSetting) }
            .Where(a => a.Item2 is { } s && SweepOptions.SweepableSettings.Contains(s, StringComparer.Ordinal) && !Applies(s, plan))
            .Select(a => new FieldError(a.Item1, Refusal(a.Item2!, plan)))];
    }

    private static string Refusal(string setting, RunPlan plan)
    {
        var label = SweepOptions.Label(setting);
        var target = plan.Target.Kind.Module.DisplayName;
        var owner = PlanSettings.TargetSection(PlanSettings.FlatPath(setting)) is { } section
            ? TargetRegistry.All.FirstOrDefault(m => string.Equals(m.Section, section, StringComparison.OrdinalIgnoreCase))
            : null;
        return owner is not null
            ? $"{label} ({setting}) is a setting of {owner.DisplayName}; this profile's target is {target}: choose a setting its runs read."
            : $"{label} ({setting}) is not read by this profile's runs ({target}, {PlanText.LoadModelName(plan.Load)}): choose a setting they read.";
    }
}
