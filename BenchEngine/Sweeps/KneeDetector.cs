using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchEngine.Sweeps;

/// <summary>
/// Names the recommended step of each series of a sweep by its <see cref="KneeRule"/>: of the steps before the first step
/// whose p99 exceeded the multiple of the series' best p99 or whose throttled share exceeded the limit, the first whose
/// throughput is within the rule's plateau of the highest.
/// </summary>
/// <remarks>A noisy client must not move the knee, so:
/// <list type="bullet">
/// <item>each step is judged on its steady window (<see cref="SweepStepResult.JudgedP99Ms"/>, …), not on one slow second;</item>
/// <item>a client-limited step (<see cref="SweepStepResult.ClientLimited"/>) is never the service's limit: its p99 and
/// throughput are the client's, so they are not judged (a throttle is still the service's answer, and counts);</item>
/// <item>a crossing counts once the next step crosses too, or a re-run of the step does (<see cref="NextReRun"/>): a step
/// that crossed alone is run again and judged on both runs' seconds together (<see cref="SweepStepResult.Pooled"/>);</item>
/// <item>a figure on a rule's border is not decided by chance: a p99 crosses only when the bound lies below the spread of
/// the step's per-second p99s (<see cref="MedianSpread"/>), and a step is below the plateau only when the spread of its
/// per-second throughputs lies below the floor. Without its seconds (stored before they were kept) the figure alone decides.</item>
/// </list></remarks>
public static class KneeDetector
{
    /// <summary>A step whose unused share of the provisioned RU/s (<see cref="KneeResult.HeadroomPercent"/>) is at most this
    /// percentage used the service's whole budget: when no step crossed the rule, the provisioned throughput, not the values,
    /// was the limit (<see cref="KneeLimit.ProvisionedThroughput"/>).</summary>
    /// <remarks>Not 0: the headroom is the mean of the step's steady seconds, and a step held at the budget spends a little
    /// less than all of it in some seconds (a second after a throttle).</remarks>
    public const double BudgetReachedHeadroomPercent = 5;

    /// <summary>One knee per series (a recommended step for every series with a measured step: the first one when already
    /// it crossed the rule), in the order the series first appear in <paramref name="steps"/>.</summary>
    /// <param name="steps">The steps that ran, in the order they ran, re-runs included.</param>
    /// <param name="rule">The rule.</param>
    /// <param name="setting">The swept setting's plan path, for the reasons' wording (<c>Load.Concurrency</c>).</param>
    public static IReadOnlyList<KneeResult> Find(IReadOnlyList<SweepStepResult> steps, KneeRule rule, string? setting = null)
    {
        ArgumentNullException.ThrowIfNull(steps);
        ArgumentNullException.ThrowIfNull(rule);
        var label = Label(setting);
        return [.. steps.GroupBy(s => s.Series).Select(series => FindInSeries(series.Key, [.. series], rule, label))];
    }

    /// <summary>The step of <paramref name="series"/> to run once more before its knee can be named, or null: the first step
    /// that crossed the rule while the next step did not (or that was the last step, once <paramref name="seriesEnded"/>),
    /// unless it was re-run already. Each step is re-run at most once.</summary>
    /// <param name="series">One series' steps so far, in the order they ran, re-runs included.</param>
    /// <param name="rule">The rule.</param>
    /// <param name="seriesEnded">No further step of the series will run (its last value, an early stop).</param>
    /// <param name="setting">The swept setting's plan path, for the reason's wording.</param>
    public static ReRunRequest? NextReRun(IReadOnlyList<SweepStepResult> series, KneeRule rule, bool seriesEnded, string? setting = null)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(rule);
        var walk = Walk(series, rule, seriesEnded, Label(setting));
        return walk.Unconfirmed is { } step && !series.Any(s => s.IsReRun && s.Index == step.Index)
            ? new ReRunRequest(step.Index, walk.ReRunReason!)
            : null;
    }

    /// <summary>Each step of a series once, as the rule judges it: when its re-run measured something, both runs together
    /// (<see cref="SweepStepResult.Pooled"/>), else its first run; in step order.</summary>
    public static IReadOnlyList<SweepStepResult> Judged(IEnumerable<SweepStepResult> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var all = series.ToList();
        var reRuns = all.Where(s => s.IsReRun && s.Measured).GroupBy(s => s.Index).ToDictionary(g => g.Key, g => g.Last());
        return [.. all.Where(s => !s.IsReRun).GroupBy(s => s.Index).OrderBy(g => g.Key)
            .Select(g => reRuns.GetValueOrDefault(g.Key) is { } reRun ? SweepStepResult.Pooled(g.First(), reRun) : g.First())];
    }

    private static KneeResult FindInSeries(string? series, IReadOnlyList<SweepStepResult> steps, KneeRule rule, string label)
    {
        var ordered = steps.OrderBy(s => s.Index).ThenBy(s => s.IsReRun).ToList();
        var judged = Judged(steps);
        var measured = judged.Where(s => s.Measured).ToList();
        if (measured.Count == 0)
        {
            return new KneeResult { Series = series, Reason = "No step ran to an end that measured throughput: nothing to recommend.", Steps = ordered };
        }

        var walk = Walk(steps, rule, seriesEnded: true, label);
        var limit = walk.Limit ?? walk.Unconfirmed;
        var before = limit is null ? measured : measured.Where(s => s.Index < limit.Index).ToList();
        var crossedAtOnce = before.Count == 0;

        // A client-limited step's throughput is the client's: recommended only when no step before the limit was the service's.
        var candidates = before.Where(s => !s.ClientLimited).ToList() is { Count: > 0 } service ? service : before;
        var highest = crossedAtOnce ? limit! : candidates.MaxBy(s => s.JudgedThroughput)!;
        var chosen = crossedAtOnce ? limit! : OnPlateau(candidates, highest, rule);
        var clientOnly = limit is null && chosen.ClientLimited;

        // Without a crossing, a step that spent the provisioned RU/s is the limit: higher values meet the same budget.
        var budgetStep = limit is null && !clientOnly
            ? measured.FirstOrDefault(s => s.Index >= chosen.Index && Headroom(s) <= BudgetReachedHeadroomPercent)
            : null;
        var clientAfter = limit is null && budgetStep is null ? measured.FirstOrDefault(s => s.Index > chosen.Index && s.ClientLimited) : null;
        var limitedBy = limit is not null ? walk.LimitedBy
            : budgetStep is not null ? KneeLimit.ProvisionedThroughput
            : clientAfter is not null || clientOnly ? KneeLimit.ClientCpu
            : KneeLimit.None;
        var why = limit is null ? "" : walk.Why + (walk.Limit is null ? " (not confirmed: the sweep ended before a re-run)" : walk.Confirmation);
        var best = chosen == highest
            ? $"{Name(chosen, label)}: highest throughput, {Rate(chosen.JudgedThroughput)}"
            : $"{Name(chosen, label)}: {Rate(chosen.JudgedThroughput)}, the first step within {Percent(rule.PlateauPercent)} of the highest throughput ({Rate(highest.JudgedThroughput)} at {Name(highest, label)}){Doubt(chosen, Floor(highest, rule))}";
        var reason = crossedAtOnce
            ? $"{Name(chosen, label)}: the first step, {Rate(chosen.JudgedThroughput)}, already crossed the rule: {why}; try lower values."
            : limit is not null
            ? $"{best}, before {why}."
            : clientOnly
            ? $"{best}, but every step was client-limited ({chosen.ClientLimitReason}): this client, not the service, was the limit, so no step's p99 or throughput is the service's; run the sweep again on a client that is not the limit."
            : budgetStep is not null
            ? $"{best}; {(budgetStep == chosen ? "its" : $"at {Name(budgetStep, label)} the")} RU/s reached the provisioned {RequestUnits(budgetStep.ProvisionedRequestUnitsPerSecond!.Value)} ({KneeResult.Headroom(Headroom(budgetStep)!.Value)} headroom): the service's budget is the limit, so higher values buy nothing without more RU/s."
            : clientAfter is not null
            ? $"{best}, before the client, not the service, was the limit at {Name(clientAfter, label)} ({clientAfter.ClientLimitReason}); the service's limit may lie beyond: run the rest again on a client that is not the limit."
            : $"{best}; no step exceeded {Number(rule.P99Multiple)} × the best p99 or {Percent(rule.MaxThrottledPercent)} throttled within the values, so the limit may lie beyond them.";
        var clientLimited = measured.Where(s => s.ClientLimited && s != clientAfter).ToList();
        if (limit is not null && !crossedAtOnce && chosen.ClientLimited)
        {
            reason += " Every step before it was client-limited, so its throughput is this client's, not the service's: run the sweep again on a client that is not the limit.";
        }
        else if (!clientOnly && clientLimited.Count > 0)
        {
            const int Shown = 3;
            var listed = string.Join("; ", clientLimited.Take(Shown).Select(s => $"{Name(s, label)}, {s.ClientLimitReason}"));
            reason += $" Not judged, the client being the limit: {listed}{(clientLimited.Count > Shown ? $"; and {clientLimited.Count - Shown} more steps" : "")}.";
        }

        double? monthly = chosen.ProvisionedRequestUnitsPerSecond is { } provisioned
            ? SummaryCalculator.ProvisionedCost(provisioned, ThroughputCost.HoursPerMonth)
            : null;
        return new KneeResult
        {
            Series = series,
            RecommendedIndex = chosen.Index,
            RecommendedValue = chosen.Value,
            ClientBound = limitedBy == KneeLimit.ClientCpu || chosen.ClientLimited,
            LimitedBy = limitedBy,
            LimitIndex = limit?.Index ?? budgetStep?.Index ?? clientAfter?.Index,
            Reason = reason,
            Throughput = chosen.JudgedThroughput,
            HeadroomPercent = Headroom(chosen),
            MonthlyCost = monthly,
            Steps = ordered,
            Notes = Notes(steps, walk, rule, label),
        };
    }

    /// <summary>The first of <paramref name="candidates"/> (in step order) whose throughput is within the rule's plateau of
    /// the highest one's.</summary>
    private static SweepStepResult OnPlateau(List<SweepStepResult> candidates, SweepStepResult highest, KneeRule rule)
    {
        var floor = Floor(highest, rule);
        return candidates.OrderBy(s => s.Index).First(s => OnPlateau(s, floor));
    }

    /// <summary>The provisioned RU/s <paramref name="step"/> left unused over the seconds it is judged on (its steady window's,
    /// as its throughput: <see cref="SweepStepResult.JudgedRequestUnitsPerSecond"/>), as a percentage of them (below 0 when
    /// it used more); null when either figure is unknown.</summary>
    private static double? Headroom(SweepStepResult step) =>
        step.ProvisionedRequestUnitsPerSecond is { } provisioned && provisioned > 0 && step.JudgedRequestUnitsPerSecond is { } used
            ? (1 - (used / provisioned)) * 100
            : null;

    private static double Floor(SweepStepResult highest, KneeRule rule) => highest.JudgedThroughput * (1 - (rule.PlateauPercent / 100));

    // On the plateau unless its seconds say it is below: a step whose throughput's spread reaches the floor could be on
    // either side of it from one run to the next, and is given the benefit of that doubt (as a p99 is, below).
    private static bool OnPlateau(SweepStepResult step, double floor) =>
        step.JudgedThroughput >= floor || step.ThroughputSpread is { } spread && spread.High >= floor;

    private static string Doubt(SweepStepResult chosen, double floor) =>
        chosen.JudgedThroughput < floor && chosen.ThroughputSpread is { } spread
            ? $": below {Rate(floor)}, but within the spread of its seconds' throughputs ({Rate(spread.Low)}–{Rate(spread.High)}, {Percent(MedianSpread.Confidence * 100)} confidence), so another run could reach it"
            : "";

    // Above the p99 bound only when its seconds say so: the bound outside the spread of the step's median per-second p99.
    private static bool AboveP99Bound(SweepStepResult step, double bound) =>
        step.JudgedP99Ms is { } p99 && p99 > bound && !(step.P99Spread is { } spread && spread.Low <= bound);

    /// <summary>The series walked in step order up to its first confirmed crossing.</summary>
    private static Walked Walk(IReadOnlyList<SweepStepResult> steps, KneeRule rule, bool seriesEnded, string label)
    {
        var judged = Judged(steps);
        var reRun = steps.Where(s => s.IsReRun).Select(s => s.Index).ToHashSet();

        var best = BestOf(judged);
        for (var k = 0; k < judged.Count; k++)
        {
            var step = judged[k];
            if (!step.Measured || Cross(step, rule, best, label) is not { } crossing)
            {
                continue;
            }

            if (step.IsReRun)
            {
                return new Walked(step, crossing.Limit, crossing.Why, ", confirmed by a re-run of that step", null, null);
            }

            var next = k + 1 < judged.Count ? judged[k + 1] : null;
            if (next is { Measured: true } && Cross(next, rule, best, label) is not null)
            {
                return new Walked(step, crossing.Limit, crossing.Why, $", confirmed by {Name(next, label)}", null, null);
            }

            if (reRun.Contains(step.Index))
            {
                // Its re-run measured nothing: the first run is all there is.
                return new Walked(step, crossing.Limit, crossing.Why, " (its re-run measured nothing)", null, null);
            }

            if (next is null && !seriesEnded)
            {
                // The next step, still to run, may confirm it.
                return new Walked(null, KneeLimit.None, "", "", null, null);
            }

            var where = next is null ? "at the last step" : "at this step only";
            return new Walked(null, crossing.Limit, crossing.Why, "", step, $"{crossing.Rose} {where}");
        }

        return new Walked(null, KneeLimit.None, "", "", null, null);
    }

    /// <summary>Whether <paramref name="step"/> crossed the rule, and how, in words. A throttle is the service's answer
    /// whoever was the limit; a p99 counts only when the step's client was not the limit.</summary>
    private static Crossing? Cross(SweepStepResult step, KneeRule rule, double? best, string label)
    {
        if (step.JudgedThrottledPercent > rule.MaxThrottledPercent)
        {
            return new Crossing(
                KneeLimit.Throttling,
                $"{Percent(step.JudgedThrottledPercent)} of requests were throttled at {Name(step, label)}, above the {Percent(rule.MaxThrottledPercent)} allowed",
                "the throttled share rose past the rule");
        }

        if (!step.ClientLimited && best is { } b && AboveP99Bound(step, rule.P99Multiple * b))
        {
            var pooled = step.PooledSeconds is not null ? $" (both runs' {step.SteadySecondP99sMs!.Count} seconds)" : "";
            return new Crossing(
                KneeLimit.P99, $"p99 {Ms(step.JudgedP99Ms!.Value)}{pooled} at {Name(step, label)} exceeded {Number(rule.P99Multiple)} × the best p99 ({Ms(b)})", "p99 rose past the rule");
        }

        return null;
    }

    private static List<KneeStepNote> Notes(IReadOnlyList<SweepStepResult> steps, Walked walk, KneeRule rule, string label)
    {
        var notes = new List<KneeStepNote>();
        var judged = Judged(steps).ToDictionary(s => s.Index);
        var best = BestOf([.. judged.Values]);
        foreach (var step in steps.OrderBy(s => s.Index).ThenBy(s => s.IsReRun))
        {
            var asJudged = judged[step.Index];
            if (step.ClientLimited && step.Measured)
            {
                notes.Add(new KneeStepNote
                {
                    Index = step.Index,
                    ReRun = step.IsReRun,
                    ClientLimited = true,
                    Text = $"client-limited: {step.ClientLimitReason}; its p99 and throughput are the client's and were not judged",
                });
            }

            if (!step.IsReRun && BorderNote(asJudged, rule, best) is { } border)
            {
                notes.Add(new KneeStepNote { Index = step.Index, ReRun = asJudged.IsReRun, Text = border });
            }

            if (step.IsReRun)
            {
                var confirmed = step.Measured && Cross(asJudged, rule, best, label) is not null;
                var both = asJudged.PooledSeconds is { } n ? $"judged on both runs' {n} steady seconds together, " : "";
                var outcome = !step.Measured ? "the re-run measured nothing, so the step is judged on its first run"
                    : confirmed ? $"{both}the re-run confirmed it"
                    : $"{both}the re-run did not confirm it";
                notes.Add(new KneeStepNote { Index = step.Index, ReRun = true, Text = $"re-run: {step.ReRunReason ?? "crossed the rule"}; {outcome}" });
            }
        }

        if (walk.Limit is { } limit)
        {
            notes.Add(new KneeStepNote { Index = limit.Index, ReRun = limit.IsReRun, Text = $"the limit: {walk.Why}{walk.Confirmation}" });
        }

        return notes;
    }

    /// <summary>A note for a step whose p99 lies above the rule's bound while the bound lies within its spread: not
    /// counted as a crossing, and said so.</summary>
    private static string? BorderNote(SweepStepResult step, KneeRule rule, double? best)
    {
        if (step.ClientLimited || !step.Measured || best is not { } b || step.JudgedP99Ms is not { } p99 || step.P99Spread is not { } spread)
        {
            return null;
        }

        var bound = rule.P99Multiple * b;
        return p99 > bound && spread.Low <= bound
            ? $"p99 {Ms(p99)} is above {Number(rule.P99Multiple)} × the best p99 ({Ms(bound)}), but within the spread of its seconds' p99s ({Ms(spread.Low)}–{Ms(spread.High)}, {Percent(MedianSpread.Confidence * 100)} confidence): another run could fall either side, so it is not counted as crossing the rule"
            : null;
    }

    // The best p99 is the service's: a client-limited step's p99 is the client's.
    private static double? BestOf(IReadOnlyList<SweepStepResult> judged)
    {
        var latencies = judged.Where(s => s is { Measured: true, ClientLimited: false, JudgedP99Ms: > 0 }).Select(s => s.JudgedP99Ms!.Value).ToList();
        return latencies.Count > 0 ? latencies.Min() : null;
    }

    private static string Label(string? setting) => setting is null ? "value" : SettingLabels.InSentence(SweepOptions.Label(setting));

    private static string Name(SweepStepResult s, string label) => $"step {s.Index + 1} ({label} {s.Value})";

    private static string Rate(double perSecond) => perSecond.ToString("N0", CultureInfo.InvariantCulture) + "/s";

    private static string RequestUnits(double perSecond) => perSecond.ToString("N0", CultureInfo.InvariantCulture) + " RU/s";

    private static string Ms(double ms) => ms.ToString(ms < 10 ? "0.#" : "N0", CultureInfo.InvariantCulture) + " ms";

    private static string Percent(double percent) => percent.ToString("0.##", CultureInfo.InvariantCulture) + " %";

    private static string Number(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);

    // Limit: the step whose crossing was confirmed (null when none was, yet); Unconfirmed: the step that crossed alone and
    // has no re-run to judge on, to be re-run for ReRunReason.
    private sealed record Walked(SweepStepResult? Limit, KneeLimit LimitedBy, string Why, string Confirmation, SweepStepResult? Unconfirmed, string? ReRunReason);

    private sealed record Crossing(KneeLimit Limit, string Why, string Rose);
}
