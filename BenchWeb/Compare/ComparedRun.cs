using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Execution;

namespace BenchWeb.Compare;

/// <summary>One run of a comparison or results table: its row, its summary (null until it has ended) and its seconds.</summary>
public sealed class ComparedRun
{
    public ComparedRun(RunEntity run, IReadOnlyList<RunSecondEntity> seconds)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(seconds);
        Run = run;
        Seconds = seconds;
        // A run that measured nothing (it failed opening its target) has no figures: zeros would read as measured.
        Summary = run.ReadSummary() is { } summary && !PartialSummary.MeasuredNothing(summary) ? summary : null;
        try
        {
            Plan = RunPlan.FromJson(run.PlanJson);
        }
        catch (RunPlanValidationException)
        {
            // An imported run may carry a plan this version cannot read; its figures still compare.
            Plan = null;
        }
    }

    public RunEntity Run { get; }

    public long Id => Run.Id;

    /// <summary>"#12 G1 Gateway": how charts' legends and tables name the run.</summary>
    public string Label => $"#{Run.Id} {Run.ProfileName}";

    public RunPlan? Plan { get; }

    public RunSummary? Summary { get; }

    public IReadOnlyList<RunSecondEntity> Seconds { get; }

    /// <summary>The run has figures, but it did not end as planned: they cover the part that ran.</summary>
    public bool IsPartial => Summary is not null && PartialSummary.IsPartial(Run.Status);

    /// <summary>The latency figures of the summary, when it has them (a summary made from saved seconds has none).</summary>
    public LatencySummary? Latency => Summary is { } summary && PartialSummary.LatencyKept(summary) ? summary.Latency : null;

    /// <summary>RU/s the cost is based on: what the run recorded, else what a model's plan provisions (the simulator's). A Cosmos DB
    /// plan's RU/s are not taken: whether the container has them is known only from the run (null: unknown).</summary>
    public double? ProvisionedRequestUnits => !RequestUnitsReported ? null : Summary?.ProvisionedRequestUnitsPerSecond ?? Run.ProvisionedRequestUnits
        ?? (Plan?.Target is { } target && target.Kind.Module is { IsModel: true } and IRequestUnitThroughput model ? model.PlannedRequestUnits(target) : null);

    /// <summary>Whether the run's target reports request units: Table Storage and the no-op do not ("n/a", never 0). Runs stored before
    /// the summary said so are told by their target.</summary>
    public bool RequestUnitsReported => Summary is { RequestUnitsReported: false } ? false : Run.RequestUnitsReported ?? Run.TargetKind.ReportsRequestUnits();
}
