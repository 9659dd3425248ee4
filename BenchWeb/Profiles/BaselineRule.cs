using System.Globalization;
using BenchEngine.Running;
using BenchWeb.Data;

namespace BenchWeb.Profiles;

/// <summary>The rule a plan's baseline run (<c>Thresholds.BaselineRunId</c>) is held to where the runs are known: it names a
/// run of this dashboard that completed and measured a throughput, the only kind a verdict compares with. A plan naming
/// another is refused when it is saved or launched, rather than failing its verdict once it has run to the end.</summary>
public static class BaselineRule
{
    /// <summary>What is wrong with the plan's baseline run, on its field; nothing when it names none. A run still queued or
    /// running is accepted: it may complete before the plan's run is judged.</summary>
    /// <param name="runs">How a run ended, by its number (the runs' read side).</param>
    /// <param name="plan">The plan whose baseline is checked.</param>
    /// <param name="cancellationToken">Cancels the look-up.</param>
    public static async Task<IReadOnlyList<FieldError>> CheckAsync(RunOutcomeReader runs, RunPlan plan, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentNullException.ThrowIfNull(plan);
        if (plan.Thresholds?.BaselineRunId is not { } id || id < 1)
        {
            // No baseline, or a number the plan's own rules refuse already.
            return [];
        }

        var run = await runs(id, cancellationToken);
        var problem = run switch
        {
            null => Invariant($"Run {id} does not exist: give the number of a completed run to compare with, or leave the baseline empty."),
            { Status: RunStatus.Queued or RunStatus.Running } => null,
            { Status: not RunStatus.Completed } => Invariant(
                $"Run {id} did not complete ({run.Status}): only a completed run is a baseline (a failed or cancelled one would make any share easy to reach); give the number of a completed run."),
            { AverageThroughput: not > 0 } => Invariant(
                $"Run {id} measured no throughput to compare with: give the number of a completed run that wrote something."),
            _ => null,
        };
        return problem is null ? [] : [new FieldError(PlanSettingsCatalog.BaselineRunId.Path, problem)];
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
