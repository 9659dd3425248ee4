using System.Diagnostics.Metrics;

namespace BenchEngine.Running;

/// <summary>A plan the rules found valid: only <see cref="RunPlan.Check"/> makes one, so whoever holds one need not check
/// the plan again (<see cref="BenchmarkRunner.RunAsync(CheckedPlan, Targets.TargetContext, IRunObserver?, CancellationToken)"/>
/// runs it as it is).</summary>
/// <remarks>Every check of a plan is counted on <see cref="ValidationsName"/>, a counter that costs nothing until something
/// listens: a launch checks its plan once where it is made and once where it starts, never more.</remarks>
public sealed class CheckedPlan
{
    /// <summary>The meter the plan checks are counted on.</summary>
    public const string MeterName = "BenchEngine.Plans";

    /// <summary>The counter of plan checks (<see cref="RunPlan.Check"/>, whatever calls it).</summary>
    public const string ValidationsName = "benchengine.plan.validations";

    private static readonly Meter Meter = new(MeterName);

    private static readonly Counter<long> Validations = Meter.CreateCounter<long>(ValidationsName, "{validation}", "Plans checked against the rules");

    internal CheckedPlan(RunPlan plan, ValidationAudience audience)
    {
        Plan = plan;
        Audience = audience;
    }

    /// <summary>The plan, as checked.</summary>
    public RunPlan Plan { get; }

    /// <summary>Whom the check's messages were worded for.</summary>
    public ValidationAudience Audience { get; }

    internal static void Counted() => Validations.Add(1);
}
