using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchEngine.Presets;

/// <summary>
/// A seed experiment as a ready plan, with the number it originally produced, so a user can rerun it
/// against their own account (or the simulator) and compare with the figure that motivated it.
/// </summary>
public sealed record Preset
{
    /// <summary>The seed's id from the design notes (e.g. <c>G1</c>), so results can be traced back to it.</summary>
    public required string Id { get; init; }

    /// <summary>A short line for lists and pickers.</summary>
    public required string Title { get; init; }

    /// <summary>What the original experiment asked and what to look for when rerunning it.</summary>
    public required string Summary { get; init; }

    /// <summary>What a run of it tells you, in one line of plain words, for lists.</summary>
    public required string Tells { get; init; }

    /// <summary>The study it belongs to, for grouping and filtering.</summary>
    public required PresetStudy Study { get; init; }

    /// <summary>The headline figure the original reported, to compare a rerun against; its client and
    /// service are part of the figure.</summary>
    public required string OriginalResult { get; init; }

    /// <summary>The original's documents per second, when it reported one (or its time for a known count): what a rerun
    /// can expect, to say how long it will take before it is launched.</summary>
    public double? OriginalInsertsPerSecond { get; init; }

    /// <summary>The plan for the real service. Cosmos DB plans leave the endpoint empty, so validation asks
    /// for the user's account rather than a run going to a placeholder.</summary>
    public required RunPlan Plan { get; init; }

    /// <summary>The service the original ran against (the simulated version is <see cref="SeedPresets.OnSimulator"/>).</summary>
    public TargetKind RealTarget => Plan.Target.Kind;
}
