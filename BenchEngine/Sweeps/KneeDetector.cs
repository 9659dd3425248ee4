using System.Globalization;
using BenchEngine.Metrics;

namespace BenchEngine.Sweeps;

/// <summary>Names the recommended step of each series of a sweep by its <see cref="KneeRule"/>: the highest-throughput step
/// before the first step whose client reached the CPU limit, whose throttled share exceeded the limit, or whose p99 exceeded
/// the multiple of the series' best p99.</summary>
public static class KneeDetector
{
    /// <summary>One knee per series (a recommended step for every series with a measured step: the first one when already
    /// it crossed the rule), in the order the series first appear in <paramref name="steps"/>.</summary>
    /// <param name="steps">The steps that ran, in the order they ran.</param>
    /// <param name="rule">The rule.</param>
    /// <param name="setting">The swept setting's plan path, for the reasons' wording (<c>Load.Concurrency</c>).</param>
    public static IReadOnlyList<KneeResult> Find(IReadOnlyList<SweepStepResult> steps, KneeRule rule, string? setting = null)
    {
        ArgumentNullException.ThrowIfNull(steps);
        ArgumentNullException.ThrowIfNull(rule);
        var label = setting is null ? "value" : SweepOptions.Label(setting).ToLowerInvariant();
        return [.. steps.GroupBy(s => s.Series).Select(series => FindInSeries(series.Key, [.. series.OrderBy(s => s.Index)], rule, label))];
    }

    private static KneeResult FindInSeries(string? series, IReadOnlyList<SweepStepResult> steps, KneeRule rule, string label)
    {
        var measured = steps.Where(s => s.Measured).ToList();
        if (measured.Count == 0)
        {
            return new KneeResult { Series = series, Reason = "No step ran to an end that measured throughput: nothing to recommend." };
        }

        var latencies = measured.Where(s => s.P99Ms is > 0).Select(s => s.P99Ms!.Value).ToList();
        double? bestP99 = latencies.Count > 0 ? latencies.Min() : null;
        string Name(SweepStepResult s) => $"step {s.Index + 1} ({label} {s.Value})";

        SweepStepResult? limit = null;
        var limitedBy = KneeLimit.None;
        var why = "";
        foreach (var step in measured)
        {
            // The client's CPU first: a saturated client inflates latency, and blaming the service for it would mislead.
            if (step.MaxClientCpuPercent is { } cpu && cpu >= rule.ClientCpuPercent)
            {
                (limit, limitedBy) = (step, KneeLimit.ClientCpu);
                why = $"the client reached {Percent(cpu)} CPU at {Name(step)} (limit {Percent(rule.ClientCpuPercent)}): the client, not the service, is the limit";
                break;
            }

            if (step.ThrottledPercent > rule.MaxThrottledPercent)
            {
                (limit, limitedBy) = (step, KneeLimit.Throttling);
                why = $"{Percent(step.ThrottledPercent)} of requests were throttled at {Name(step)}, above the {Percent(rule.MaxThrottledPercent)} allowed";
                break;
            }

            if (bestP99 is { } best && step.P99Ms is { } p99 && p99 > rule.P99Multiple * best)
            {
                (limit, limitedBy) = (step, KneeLimit.P99);
                why = $"p99 {Ms(p99)} at {Name(step)} exceeded {Number(rule.P99Multiple)} × the best p99 ({Ms(best)})";
                break;
            }
        }

        var before = limit is null ? measured : measured.Where(s => s.Index < limit.Index).ToList();
        var crossedAtOnce = before.Count == 0;
        if (crossedAtOnce)
        {
            // Nothing ran below the limit: the first step is the best there is, and the reason says it is already past it.
            before = [limit!];
        }

        var chosen = before.MaxBy(s => s.Throughput)!;
        var reason = crossedAtOnce
            ? $"{Name(chosen)}: the first step, {Rate(chosen.Throughput)}, already crossed the rule: {why}; try lower values."
            : limit is null
            ? $"{Name(chosen)}: highest throughput, {Rate(chosen.Throughput)}; no step exceeded {Number(rule.P99Multiple)} × the best p99, {Percent(rule.MaxThrottledPercent)} throttled or {Percent(rule.ClientCpuPercent)} client CPU within the values, so the limit may lie beyond them."
            : $"{Name(chosen)}: highest throughput, {Rate(chosen.Throughput)}, before {why}.";
        double? headroom = chosen.ProvisionedRequestUnitsPerSecond is > 0 && chosen.RequestUnitsPerSecond is { } used
            ? (1 - (used / chosen.ProvisionedRequestUnitsPerSecond.Value)) * 100
            : null;
        double? monthly = chosen.ProvisionedRequestUnitsPerSecond is { } provisioned
            ? SummaryCalculator.ProvisionedCost(provisioned, ThroughputCost.HoursPerMonth)
            : null;
        return new KneeResult
        {
            Series = series,
            RecommendedIndex = chosen.Index,
            RecommendedValue = chosen.Value,
            ClientBound = limitedBy == KneeLimit.ClientCpu,
            LimitedBy = limitedBy,
            LimitIndex = limit?.Index,
            Reason = reason,
            Throughput = chosen.Throughput,
            HeadroomPercent = headroom,
            MonthlyCost = monthly,
        };
    }

    private static string Rate(double perSecond) => perSecond.ToString("N0", CultureInfo.InvariantCulture) + "/s";

    private static string Ms(double ms) => ms.ToString(ms < 10 ? "0.#" : "N0", CultureInfo.InvariantCulture) + " ms";

    private static string Percent(double percent) => percent.ToString("0.#", CultureInfo.InvariantCulture) + " %";

    private static string Number(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
