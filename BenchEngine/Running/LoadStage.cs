using System.Text.Json.Serialization;

namespace BenchEngine.Running;

/// <summary>One stage of a run's load (k6's stages, Locust's load shapes): for <see cref="DurationSeconds"/> the load is held
/// at, or ramped to, this stage's level. The closed loop and waves take a level of workers (<see cref="Concurrency"/>), the
/// open loop a rate (<see cref="RatePerSecond"/>).</summary>
public sealed record LoadStage
{
    /// <summary>Whole seconds, at least 1: stages begin and end on the run's seconds, so each second belongs to one stage.</summary>
    public int DurationSeconds { get; init; } = 10;

    /// <summary>Closed loop: active workers. Waves: requests per wave.</summary>
    public int? Concurrency { get; init; }

    /// <summary>Open loop: requests started per second.</summary>
    public double? RatePerSecond { get; init; }

    public StageRamp Ramp { get; init; } = StageRamp.Step;
}

/// <summary>How a stage reaches its level.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<StageRamp>))]
public enum StageRamp
{
    /// <summary>The level jumps to the stage's at the stage's start.</summary>
    Step,

    /// <summary>From the previous stage's level (the first stage: from zero) to this stage's, evenly over the stage.</summary>
    Linear,
}
