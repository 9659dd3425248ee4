using System.Globalization;
using System.Text.Json.Serialization;
using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchEngine.Sweeps;

/// <summary>One step of a sweep as it ran: which step, how it ended and its summary figures. Kept apart from the step's
/// plan so that a sweep's results stay small enough to store and export.</summary>
/// <remarks>The knee judges a step on its steady window (<see cref="JudgedThroughput"/>, <see cref="JudgedP99Ms"/>,
/// <see cref="JudgedThrottledPercent"/>): the seconds between warm-up and cool-down that were the service's, so one slow
/// second or a starved client cannot decide. Results stored before these figures were kept fall back to the run's.</remarks>
public sealed record SweepStepResult
{
    /// <summary>A step needs at least this many of the service's seconds in its steady window to be judged on them.</summary>
    public const int MinJudgedSeconds = 3;

    /// <summary>The step's number in the sweep, from 0.</summary>
    public int Index { get; init; }

    /// <summary>The series' value; null without series.</summary>
    public string? Series { get; init; }

    /// <summary>The swept setting's value at this step.</summary>
    public string Value { get; init; } = "";

    public RunStatus Status { get; init; }

    /// <summary>Documents per second: the mean of the run's full seconds that were the service's (the run's average when it
    /// had none); what the knee judges when the step has no steady figure (<see cref="JudgedThroughput"/>).</summary>
    public double Throughput { get; init; }

    /// <summary>The run's average throughput: documents ÷ elapsed, as its run page gives it; the basis of
    /// <see cref="RequestUnitsPerSecond"/>. Null in results stored before it was kept.</summary>
    public double? AverageThroughput { get; init; }

    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>Throttled responses ÷ all responses, as a percentage.</summary>
    public double ThrottledPercent { get; init; }

    /// <summary>The highest per-second client CPU %; null when it was not measured.</summary>
    public double? MaxClientCpuPercent { get; init; }

    /// <summary>The run's RU ÷ elapsed: on the basis of <see cref="AverageThroughput"/>.</summary>
    public double? RequestUnitsPerSecond { get; init; }

    public double? ProvisionedRequestUnitsPerSecond { get; init; }

    /// <summary>Documents per second over the steady window's seconds that were the service's; null when the window has
    /// fewer than <see cref="MinJudgedSeconds"/> of them.</summary>
    public double? SteadyThroughput { get; init; }

    /// <summary>RU per second over the steady window's service seconds: on the basis of <see cref="SteadyThroughput"/>; null as
    /// it is, or when the target has no request units.</summary>
    public double? SteadyRequestUnitsPerSecond { get; init; }

    /// <summary>The p99 over the steady window's seconds that were the service's: the median (nearest rank) of their per-second p99s,
    /// so no single second decides; null when fewer than <see cref="MinJudgedSeconds"/> of them answered.</summary>
    public double? SteadyP99Ms { get; init; }

    /// <summary>Throttled share of the steady window's service seconds, as a percentage; null as <see cref="SteadyThroughput"/>.</summary>
    public double? SteadyThrottledPercent { get; init; }

    /// <summary>The per-second p99s (ms) of the steady window's service seconds that answered, in second order: what
    /// <see cref="SteadyP99Ms"/> is the median of, and its spread (<see cref="P99Spread"/>); null in results stored before
    /// they were kept.</summary>
    public IReadOnlyList<double>? SteadySecondP99sMs { get; init; }

    /// <summary>The per-second throughputs of the steady window's service seconds, in second order, for the spread of
    /// <see cref="SteadyThroughput"/> (<see cref="ThroughputSpread"/>); null as <see cref="SteadySecondP99sMs"/>.</summary>
    public IReadOnlyList<double>? SteadySecondThroughputs { get; init; }

    /// <summary>Seconds of the step the client, not the service, was the limit in (<see cref="SecondSnapshot.IsClientLimited"/>).</summary>
    public int ClientLimitedSeconds { get; init; }

    /// <summary>The step as a whole was client-limited (<see cref="IsClientLimited"/>): its p99 and throughput are the
    /// client's, never the service's limit.</summary>
    public bool ClientLimited { get; init; }

    /// <summary>Which seconds were client-limited and why, in words ("seconds 4–9: the client was starved: …"); null when
    /// none were.</summary>
    public string? ClientLimitReason { get; init; }

    /// <summary>A second run of the step (same index), made because its first crossed the knee rule unconfirmed; the knee
    /// judges the step on it.</summary>
    public bool IsReRun { get; init; }

    /// <summary>Why the step was re-run, in words ("p99 rose past the rule at this step only"); null for a first run.</summary>
    public string? ReRunReason { get; init; }

    /// <summary>Whether the step ran to an end that measured something (completed or stopped by a rule, with documents landed).</summary>
    public bool Measured => Status is RunStatus.Completed or RunStatus.Stopped && Throughput > 0;

    /// <summary>The throughput the knee judges: the steady window's, else the run's.</summary>
    [JsonIgnore]
    public double JudgedThroughput => SteadyThroughput ?? Throughput;

    /// <summary>The RU/s the knee judges the headroom on: the steady window's, else the run's, so that a step's headroom and
    /// its throughput have one basis.</summary>
    [JsonIgnore]
    public double? JudgedRequestUnitsPerSecond => SteadyThroughput is not null && SteadyRequestUnitsPerSecond is { } steady ? steady : RequestUnitsPerSecond;

    /// <summary>The p99 the knee judges: the steady window's, else the run's.</summary>
    [JsonIgnore]
    public double? JudgedP99Ms => SteadyP99Ms ?? P99Ms;

    /// <summary>The throttled share the knee judges: the steady window's, else the run's.</summary>
    [JsonIgnore]
    public double JudgedThrottledPercent => SteadyThrottledPercent ?? ThrottledPercent;

    /// <summary>How far <see cref="JudgedP99Ms"/> could move from run to run: the confidence interval of the median of the
    /// step's per-second p99s; null without them.</summary>
    [JsonIgnore]
    public MedianSpread? P99Spread => SteadyP99Ms is null ? null : MedianSpread.Of(SteadySecondP99sMs);

    /// <summary>How far <see cref="JudgedThroughput"/> could move from run to run: the confidence interval of the median of
    /// the step's per-second throughputs; null without them.</summary>
    [JsonIgnore]
    public MedianSpread? ThroughputSpread => SteadyThroughput is null ? null : MedianSpread.Of(SteadySecondThroughputs);

    /// <summary>The figures of <paramref name="step"/> from the run that made them.</summary>
    /// <param name="step">The step.</param>
    /// <param name="status">How its run ended.</param>
    /// <param name="summary">Its run's summary.</param>
    /// <param name="seconds">Its run's seconds, for the steady window's p99; without them the step is judged on the run's p99.</param>
    /// <param name="rule">The knee rule, for the share of client-limited seconds that makes the step client-limited.</param>
    public static SweepStepResult From(SweepStep step, RunStatus status, RunSummary summary, IReadOnlyList<SecondSnapshot>? seconds = null, KneeRule? rule = null)
    {
        ArgumentNullException.ThrowIfNull(step);
        ArgumentNullException.ThrowIfNull(summary);
        var window = summary.SteadyState;
        var judged = JudgedSeconds(summary);
        var service = seconds?.Where(s => s.Index >= window.FirstSecond && s.Index <= window.LastSecond && s.IsFull && !s.IsClientLimited).ToList();
        var p99s = service?.Where(s => s.OkRequests > 0 && s.LatencyP99Ms is not null).Select(s => s.LatencyP99Ms!.Value).ToList();
        return new SweepStepResult
        {
            Index = step.Index,
            Series = step.Series,
            Value = step.Value,
            Status = status,
            Throughput = summary.MeanPerSecondThroughput > 0 ? summary.MeanPerSecondThroughput : summary.AverageThroughput,
            AverageThroughput = summary.AverageThroughput,
            P50Ms = summary.Latency.P50Ms,
            P99Ms = summary.Latency.P99Ms,
            ThrottledPercent = summary.ThrottledFraction * 100,
            MaxClientCpuPercent = summary.MaxClientCpuPercent,
            RequestUnitsPerSecond = summary.RequestUnitsPerSecond,
            ProvisionedRequestUnitsPerSecond = summary.ProvisionedRequestUnitsPerSecond,
            SteadyThroughput = judged >= MinJudgedSeconds ? window.MeanThroughput : null,
            SteadyRequestUnitsPerSecond = judged >= MinJudgedSeconds && summary.RequestUnitsReported ? window.RequestUnitsPerSecond : null,
            SteadyP99Ms = p99s is { Count: >= MinJudgedSeconds } ? SummaryCalculator.NearestRank(p99s, 50) : null,
            SteadyThrottledPercent = judged >= MinJudgedSeconds ? window.ThrottledFraction * 100 : null,
            SteadySecondP99sMs = p99s,
            SteadySecondThroughputs = service?.Select(s => s.OkPerSecond).ToList(),
            ClientLimitedSeconds = summary.ClientLimitedSeconds,
            ClientLimited = IsClientLimited(summary, rule ?? new KneeRule()),
            ClientLimitReason = LimitReason(summary),
        };
    }

    /// <summary>Whether the client, not the service, was the limit of a step: it was client-limited in at least
    /// <see cref="KneeRule.ClientLimitedPercent"/> of its full seconds, or so many of its steady seconds that fewer than
    /// <see cref="MinJudgedSeconds"/> were the service's. A step with a few client-limited seconds is judged on the others.</summary>
    public static bool IsClientLimited(RunSummary summary, KneeRule rule)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(rule);
        if (summary.ClientLimitedSeconds == 0)
        {
            return false;
        }

        // Every second but the last, partial one is full.
        var full = Math.Max(1, (int)Math.Floor(summary.Elapsed.TotalSeconds + 0.001));
        return summary.ClientLimitedSeconds * 100.0 >= rule.ClientLimitedPercent * full || JudgedSeconds(summary) < MinJudgedSeconds;
    }

    /// <summary>The client-limited spans in words, the first three of them ("seconds 4–9: the client was starved: …; and 2
    /// more spans"); null when no second was client-limited.</summary>
    public static string? LimitReason(RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        var spans = summary.ClientLimitedSpans;
        if (spans.Count == 0)
        {
            return summary.ClientLimitedSeconds > 0 ? string.Create(CultureInfo.InvariantCulture, $"{summary.ClientLimitedSeconds} seconds client-limited") : null;
        }

        const int Shown = 3;
        var text = string.Join("; ", spans.Take(Shown).Select(s => s.Describe()));
        return spans.Count > Shown ? string.Create(CultureInfo.InvariantCulture, $"{text}; and {spans.Count - Shown} more spans") : text;
    }

    /// <summary>A step judged on both of its runs together (<paramref name="first"/> and its re-run
    /// <paramref name="reRun"/>): their steady seconds pooled, the p99 the median of all their per-second p99s and the
    /// throughput the mean of all their per-second throughputs, so a re-run adds evidence instead of replacing it (the
    /// throttled share is the re-run's: a throttle is the service's answer, and the re-run's is the latest). The
    /// re-run alone when either lacks its seconds (stored before they were kept, or no steady window) or either was
    /// client-limited.</summary>
    public static SweepStepResult Pooled(SweepStepResult first, SweepStepResult reRun)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(reRun);
        if (!first.Measured || first.ClientLimited || reRun.ClientLimited
            || first is not { SteadySecondP99sMs: { } p99s1, SteadySecondThroughputs: { } rates1, SteadyThroughput: not null }
            || reRun is not { SteadySecondP99sMs: { } p99s2, SteadySecondThroughputs: { } rates2, SteadyThroughput: not null })
        {
            return reRun;
        }

        List<double> p99s = [.. p99s1, .. p99s2];
        List<double> rates = [.. rates1, .. rates2];
        var seconds = rates.Count;
        return reRun with
        {
            SteadyThroughput = rates.Average(),
            SteadyP99Ms = p99s.Count >= MinJudgedSeconds ? SummaryCalculator.NearestRank(p99s, 50) : reRun.SteadyP99Ms,
            SteadySecondP99sMs = p99s,
            SteadySecondThroughputs = rates,
            PooledSeconds = seconds,
        };
    }

    /// <summary>How many steady seconds of both runs the step is judged on, when it is judged on both together
    /// (<see cref="Pooled"/>); null otherwise.</summary>
    [JsonIgnore]
    public int? PooledSeconds { get; init; }

    private static int JudgedSeconds(RunSummary summary) => Math.Max(0, summary.SteadyState.Seconds - summary.SteadyState.SecondsLeftOut);
}
