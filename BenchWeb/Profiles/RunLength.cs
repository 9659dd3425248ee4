using System.Globalization;
using BenchEngine.Running;

namespace BenchWeb.Profiles;

/// <summary>
/// How long a plan will run, said before it is launched: its duration, or its documents at a rate it can expect (the open
/// loop's own rate, or a rate known before: the profile's last completed run, a preset's original result, the simulator
/// model's estimate). Without either it says "unknown" rather than guess: a closed loop runs as fast as the service and the
/// client allow.
/// </summary>
public static class RunLength
{
    /// <summary>E.g. "about 2 min 46 s (100,000 documents at 602/s, the original's rate)", "30 s", "at most 5 min",
    /// "unknown (1,000,000 documents at a rate only a run will tell)".</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="expectedPerSecond">Documents per second measured before, if any.</param>
    /// <param name="expectedFrom">Where that rate comes from, e.g. "its last run, #12".</param>
    public static string Describe(RunPlan plan, double? expectedPerSecond = null, string? expectedFrom = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var documents = plan.DocumentLimit;
        var duration = plan.Stop.DurationSeconds;
        var (rate, from) = plan.Load is { Model: LoadModel.OpenLoop, RatePerSecond: { } requests }
            ? (requests * plan.Load.BatchSize, "the open loop's rate")
            : (expectedPerSecond is > 0 ? expectedPerSecond : null, expectedFrom);
        if (documents is not { } count)
        {
            return duration is { } seconds ? Time(seconds) : "unknown (until the file ends)";
        }

        // In what the target stores: documents, entities, blobs, messages or keys.
        var what = PlanText.Count(count, plan.Target.Kind.Module.Unit);
        if (rate is not { } perSecond)
        {
            return duration is { } cap
                ? $"at most {Time(cap)} ({what} at a rate only a run will tell)"
                : $"unknown ({what} at a rate only a run will tell)";
        }

        var estimate = count / perSecond;
        var rateText = perSecond.ToString(perSecond < 10 ? "N1" : "N0", CultureInfo.InvariantCulture) + "/s";
        var source = from is null ? "" : $", {from}";
        return duration is { } limit && limit < estimate
            ? $"{Time(limit)} (its duration; {what} at {rateText}{source} would take {Time(estimate)})"
            : $"about {Time(estimate)} ({what} at {rateText}{source})";
    }

    /// <summary>"45 s", "2 min 46 s", "1 h 23 min", "3 d 4 h".</summary>
    public static string Time(double seconds)
    {
        var t = TimeSpan.FromSeconds(Math.Max(0, Math.Min(seconds, TimeSpan.MaxValue.TotalSeconds / 2)));
        return t.TotalSeconds switch
        {
            < 1 => "under a second",
            < 60 => $"{(int)Math.Round(t.TotalSeconds)} s",
            < 3_600 => t.Seconds == 0 ? $"{t.Minutes} min" : $"{t.Minutes} min {t.Seconds} s",
            < 86_400 => t.Minutes == 0 ? $"{t.Hours} h" : $"{t.Hours} h {t.Minutes} min",
            _ => ((long)t.TotalDays).ToString("N0", CultureInfo.InvariantCulture) + (t.Hours == 0 ? " d" : $" d {t.Hours} h"),
        };
    }
}
