using BenchEngine.Running;

namespace BenchWeb.Uploads;

/// <summary>A plan from the web that passed <see cref="WebPlanRules"/>: as given (its uploaded file named by number, what a
/// run or a profile stores) and as it runs (checked by the engine's rules, with the file's stored path). Only
/// <see cref="WebPlanRules.Check"/> makes one, so whoever holds one need not check the plan again.</summary>
public sealed class CheckedWebPlan
{
    internal CheckedWebPlan(RunPlan given, CheckedPlan runnable)
    {
        Given = given;
        Runnable = runnable;
    }

    /// <summary>The plan as sent or stored: what a launch saves.</summary>
    public RunPlan Given { get; }

    /// <summary>The plan as the engine runs it (kept in memory only: it holds the stored file's path).</summary>
    public CheckedPlan Runnable { get; }
}
