using BenchEngine.Presets;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchWeb.Profiles;

/// <summary>A built-in preset as the presets list shows it, grouped and filtered: a seed experiment's run
/// (<see cref="Run"/>) or a study's sweep (<see cref="Sweep"/>), with what it tells you and how long it takes, in words.</summary>
public sealed record PresetEntry
{
    /// <summary>Where no measured rate is known, how long a run takes comes from the simulator's model, and says so.</summary>
    public const string EstimateSource = "an estimate from the simulator's model";

    private PresetEntry(string id, string title, string tells, string summary, PresetStudy study, RunPlan plan)
    {
        Id = id;
        Title = title;
        Tells = tells;
        Summary = summary;
        Study = study;
        Plan = plan;
    }

    public string Id { get; }

    public string Title { get; }

    public string Tells { get; }

    public string Summary { get; }

    public PresetStudy Study { get; }

    /// <summary>The plan for the real service.</summary>
    public RunPlan Plan { get; }

    /// <summary>The seed experiment, when this is one.</summary>
    public Preset? Run { get; private init; }

    /// <summary>The sweep, when this is one.</summary>
    public SweepPreset? Sweep { get; private init; }

    /// <summary>The service it was written for.</summary>
    public TargetModule Target => Plan.Target.Kind.Module;

    /// <summary>The figure the original published; null for a sweep.</summary>
    public string? OriginalResult => Run?.OriginalResult;

    /// <summary>How long a run takes (<see cref="Takes"/>); null for a sweep, whose steps say.</summary>
    public string? Length { get; private init; }

    /// <summary>The plan in one line of words: target, workload, load and when it stops.</summary>
    public string PlanLine => $"{PlanText.Target(Plan)} · {DocumentSourceFactory.Describe(Plan.Workload)} · {PlanText.Load(Plan)} · stops at {PlanText.Stop(Plan)}";

    /// <summary>Every preset: the seed experiments and each target's own, then the sweeps.</summary>
    public static IReadOnlyList<PresetEntry> All { get; } =
    [
        .. SeedPresets.All.Select(p => new PresetEntry(p.Id, p.Title, p.Tells, p.Summary, p.Study, p.Plan) { Run = p, Length = Takes(p) }),
        .. SweepPresets.All.Select(p => new PresetEntry(p.Id, p.Title, p.Tells, p.Summary, p.Study, p.Plan) { Sweep = p }),
    ];

    /// <summary>How long a run takes: at the original's rate where it published one, else at the simulator model's estimate
    /// (said as such), e.g. "about 52 s (10,000 blobs at 192/s, an estimate from the simulator's model)".</summary>
    public static string Takes(Preset preset)
    {
        ArgumentNullException.ThrowIfNull(preset);
        return preset.OriginalInsertsPerSecond is { } original
            ? RunLength.Describe(preset.Plan, original, "the original's rate")
            : RunLength.Describe(preset.Plan, SimulatorEstimate.Of(SeedPresets.OnSimulator(preset.Plan))?.DocumentsPerSecond, EstimateSource);
    }

    /// <summary>What "Run on simulator" does for a preset of <paramref name="target"/>: a service the simulator models
    /// (Cosmos DB) gets its RU/s and partitions; any other is run as a simulated Cosmos DB, which checks the plan only.</summary>
    public static string OnSimulator(TargetModule target)
    {
        ArgumentNullException.ThrowIfNull(target);
        return target is IRequestUnitThroughput
            ? "Runs it now on the simulated Cosmos DB with the same RU/s and partitions: no account needed."
            : $"On the simulator this runs as a simulated Cosmos DB: it checks the plan, not {target.DisplayName}'s speed.";
    }
}
