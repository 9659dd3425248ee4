using BenchEngine.Running;

namespace BenchWeb.Profiles;

/// <summary>One row of the profile form's stages: a <see cref="LoadStage"/> being edited. Both levels are kept, so that
/// switching the load model back and forth loses neither; the plan takes the one its model reads.</summary>
public sealed class ProfileStage
{
    public int DurationSeconds { get; set; } = 10;

    /// <summary>Closed loop and waves: workers.</summary>
    public int? Workers { get; set; } = 10;

    /// <summary>Open loop: requests/s.</summary>
    public double? RatePerSecond { get; set; }

    public StageRamp Ramp { get; set; } = StageRamp.Step;

    public static ProfileStage From(LoadStage stage)
    {
        ArgumentNullException.ThrowIfNull(stage);
        return new() { DurationSeconds = stage.DurationSeconds, Workers = stage.Concurrency, RatePerSecond = stage.RatePerSecond, Ramp = stage.Ramp };
    }

    public LoadStage ToStage(LoadModel model) => new()
    {
        DurationSeconds = DurationSeconds,
        Concurrency = model == LoadModel.OpenLoop ? null : Workers,
        RatePerSecond = model == LoadModel.OpenLoop ? RatePerSecond : null,
        Ramp = Ramp,
    };
}
