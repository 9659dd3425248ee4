using BenchEngine.Running;
using BenchEngine.Targets;

namespace BenchWeb.Guard.Administration;

/// <summary>The limits in force: what an administrator set, else the configured defaults. A plan over any of them is
/// refused at launch with the field named, as the engine's own rules are.</summary>
public sealed record InstallationLimits(double MaxDurationSeconds, long MaxDocuments, int MaxConcurrency, double MaxRatePerSecond, int MaxRequestUnits)
{
    /// <summary>The engine's own bounds: an administrator's limit cannot go past them.</summary>
    public const double MaxDurationCeiling = 7 * 24 * 3600;

    public const int MaxConcurrencyCeiling = 10_000;

    public const double MaxRateCeiling = 1_000_000;

    public const int MaxRequestUnitsCeiling = 1_000_000;

    private const string ByAdministrator = "(set by an administrator)";

    public static InstallationLimits From(InstallationLimitsOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new(options.MaxDurationSeconds, options.MaxDocuments, options.MaxConcurrency, options.MaxRatePerSecond, options.MaxRequestUnits);
    }

    /// <summary>Every setting of the plan over a limit, by field path. Empty when the plan is within them all.</summary>
    public IReadOnlyList<FieldError> Check(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var errors = new List<FieldError>();
        var stop = plan.Stop;
        if (stop.DurationSeconds > MaxDurationSeconds)
        {
            errors.Add(new(PlanSettingsCatalog.DurationSeconds.Path, $"the installation allows at most {MaxDurationSeconds:N0} s {ByAdministrator}."));
        }

        else if (stop.DurationSeconds is null && plan.Load.Stages.Count > 0 && plan.Load.StagesSeconds > MaxDurationSeconds)
        {
            errors.Add(new(PlanSettingsCatalog.Stages.Path, $"the stages last {plan.Load.StagesSeconds:N0} s; the installation allows at most {MaxDurationSeconds:N0} s {ByAdministrator}."));
        }

        if (stop.TotalDocuments > MaxDocuments)
        {
            errors.Add(new(PlanSettingsCatalog.TotalDocuments.Path, $"the installation allows at most {MaxDocuments:N0} documents per run {ByAdministrator}."));
        }
        else if (stop.TotalDocuments is null && plan.DocumentLimit > MaxDocuments)
        {
            errors.Add(new(PlanSettingsCatalog.DocumentsPerWorker.Path, $"the installation allows at most {MaxDocuments:N0} documents per run {ByAdministrator}; "
                + $"{plan.Load.Concurrency:N0} workers × {stop.DocumentsPerWorker:N0} is {plan.DocumentLimit:N0}."));
        }

        if (plan.Load.Concurrency > MaxConcurrency)
        {
            errors.Add(new(PlanSettingsCatalog.Concurrency.Path, $"the installation allows at most {MaxConcurrency:N0} {ByAdministrator}."));
        }

        if (plan.Load.RatePerSecond > MaxRatePerSecond)
        {
            errors.Add(new(PlanSettingsCatalog.RatePerSecond.Path, $"the installation allows at most {MaxRatePerSecond:N0} requests/s {ByAdministrator}."));
        }

        // Each stage is a load of its own: held to the same limits, on its own field.
        for (var i = 0; i < plan.Load.Stages.Count; i++)
        {
            var stage = plan.Load.Stages[i];
            if (stage.Concurrency > MaxConcurrency)
            {
                errors.Add(new(PlanSettingsCatalog.StageConcurrency.At(i), $"the installation allows at most {MaxConcurrency:N0} {ByAdministrator}."));
            }

            if (stage.RatePerSecond > MaxRatePerSecond)
            {
                errors.Add(new(PlanSettingsCatalog.StageRatePerSecond.At(i), $"the installation allows at most {MaxRatePerSecond:N0} requests/s {ByAdministrator}."));
            }
        }

        // Only what the app would provision: a container it creates. The simulator spends a model's budget, no money.
        if ((plan.Target.Kind.Module as IRequestUnitThroughput)?.ProvisionsOnCreate(plan.Target) is { } provisioned && provisioned.RequestUnits > MaxRequestUnits)
        {
            errors.Add(new(provisioned.Field, $"the installation allows at most {MaxRequestUnits:N0} RU/s for a container it creates {ByAdministrator}."));
        }

        return errors;
    }

    /// <summary>The stops the installation adds to a plan that lacks them: its maximum duration when the plan gives
    /// none, its maximum documents when the plan gives no count. The first stop reached ends the run, so a plan that
    /// says both is unchanged.</summary>
    public (double? DurationSeconds, long? Documents) CapsFor(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        // Stages imply their duration: such a plan needs no cap (and the check above holds them to the maximum).
        return (plan.EffectiveDurationSeconds is null ? MaxDurationSeconds : null, plan.DocumentLimit is null ? MaxDocuments : null);
    }
}
