namespace BenchEngine.Metrics;

/// <summary>Computes a <see cref="RunSummary"/> from a run's seconds and its latency histogram.</summary>
public static class SummaryCalculator
{
    /// <summary>US dollars per 100 RU/s per hour of provisioned throughput (single-region, manual).</summary>
    public const double DefaultDollarsPer100RuHour = ThroughputCost.DefaultDollarsPer100RuHour;

    /// <summary>Client CPU at or above this share of all cores marks a run as limited by the client.</summary>
    public const double ClientBoundCpuPercent = 85;

    /// <summary>Hours in the month Azure prices by.</summary>
    public const double HoursPerMonth = ThroughputCost.HoursPerMonth;

    /// <summary>What provisioning this many RU/s (manual) costs for this many hours.</summary>
    public static double ProvisionedCost(double requestUnitsPerSecond, double hours, double dollarsPer100RuHour = DefaultDollarsPer100RuHour) =>
        ThroughputCost.Manual(requestUnitsPerSecond, hours, dollarsPer100RuHour);

    public static RunSummary Calculate(
        IReadOnlyList<SecondSnapshot> seconds,
        LatencyDistribution latency,
        bool latencyIsPerBatch = false,
        double? provisionedRuPerSecond = null,
        double dollarsPer100RuHour = DefaultDollarsPer100RuHour) =>
        Calculate(seconds, latency, new SummaryOptions
        {
            LatencyIsPerBatch = latencyIsPerBatch,
            ProvisionedRequestUnitsPerSecond = provisionedRuPerSecond,
            DollarsPer100RuHour = dollarsPer100RuHour,
        });

    public static RunSummary Calculate(IReadOnlyList<SecondSnapshot> seconds, LatencyDistribution latency, SummaryOptions options)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentNullException.ThrowIfNull(latency);
        ArgumentNullException.ThrowIfNull(options);

        var elapsed = seconds.Count == 0 ? TimeSpan.Zero : seconds[^1].Elapsed;
        var totals = SecondTotals.Zero;
        var errorsByStatus = new Dictionary<int, long>();
        foreach (var second in seconds)
        {
            totals += SecondTotals.Of(second);
            foreach (var (status, count) in second.ErrorsByStatus)
            {
                errorsByStatus[status] = errorsByStatus.GetValueOrDefault(status) + count;
            }
        }

        // Per-second figures are the service's: seconds whose figures were the client's are left out, and counted.
        // When the client was the limit in every second there is no service's second to keep: the figures are then of every
        // second, and the client-limited spans say whose they are.
        var full = seconds.Where(s => s.IsFull).ToList();
        var perSecond = ServiceSeconds(full).Select(s => (double)s.Ok).ToList();
        var spans = ClientLimitedSpans(seconds);

        // A rate needs at least one full second: a 0.2 s run's RU ÷ 0.2 s is not a rate anyone provisioned.
        var hasRate = elapsed >= SecondSnapshot.FullSecond;
        var reported = options.RequestUnitsReported;
        var provisioned = reported ? options.ProvisionedRequestUnitsPerSecond : null;
        var (costOfRun, costPerMonth) = Cost(seconds, elapsed, provisioned, options);
        return new RunSummary
        {
            Elapsed = elapsed,
            TotalOk = totals.Ok,
            TotalOkRequests = totals.OkRequests,
            TotalThrottled = totals.Throttled,
            TotalErrors = totals.Errors,
            ErrorsByStatus = errorsByStatus,
            TotalIssued = totals.Issued,
            TotalDropped = totals.Dropped,
            TotalGivenUp = totals.GivenUp,
            OfferedRequestsPerSecond = options.OfferedRequestsPerSecond,
            AchievedRequestsPerSecond = hasRate ? totals.Issued / elapsed.TotalSeconds : null,
            // Open loop only: the other models have no schedule (their not started are workers' documents at the stop).
            DroppedFraction = options.OfferedRequestsPerSecond is null ? 0 : totals.DroppedFraction,
            AverageThroughput = totals.Throughput(elapsed.TotalSeconds),
            MeanPerSecondThroughput = perSecond.Count == 0 ? 0 : perSecond.Average(),
            P99PerSecondThroughput = NearestRank(perSecond, 99),
            Top10PercentMeanThroughput = perSecond.Count == 0 ? null : TopMean(perSecond, RunSummary.TopSecondsPercent),
            Latency = Summarise(latency),
            LatencyIsPerBatch = options.LatencyIsPerBatch,
            RequestUnitsReported = reported,
            TotalRequestUnits = reported ? totals.RequestUnits : null,
            RequestUnitsPerSecond = reported && hasRate ? totals.RequestUnits / elapsed.TotalSeconds : null,
            RequestUnitsPerInsert = reported ? totals.RequestUnitsPerInsert : null,
            ThrottledFraction = totals.ThrottledFraction,
            ProvisionedRequestUnitsPerSecond = provisioned,
            ProvisionedAutoscale = provisioned is not null && options.Autoscale,
            EstimatedCostOfRun = costOfRun,
            EstimatedCostPerMonth = costPerMonth,
            SteadyState = FindSteadyState(seconds),
            MaxClientCpuPercent = MaxClientCpuPercent(seconds),
            ClientBound = spans.Count > 0,
            ClientLimitedSeconds = seconds.Count(s => s.IsClientLimited),
            ClientLimitedSpans = spans,
            PerSecondLeftOut = full.Count - perSecond.Count,
            WorstClientSecond = WorstClientSecond(seconds, options.ClientLimits),
            TotalOffered = totals.Issued + totals.Dropped + totals.NotStarted,
            TotalSentLate = totals.SentLate,
            TotalNotStarted = totals.NotStarted,
            TotalAbandoned = totals.Abandoned,
            TotalGivenUpRequests = totals.GivenUpRequests,
            Stages = ForStages(seconds, options.StageSeconds, reported),
        };
    }

    /// <summary>The highest client CPU of the full seconds (of every second when none is full): a last second of a few
    /// milliseconds reads this process's CPU over those milliseconds, which is no figure of the run.</summary>
    public static double MaxClientCpuPercent(IReadOnlyList<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var measured = seconds.Any(s => s.IsFull) ? seconds.Where(s => s.IsFull) : seconds;
        return measured.Select(s => s.ClientCpuPercent).DefaultIfEmpty(0).Max();
    }

    /// <summary>Each started stage's figures (see <see cref="StageSummary"/>): its seconds by index, the last started stage
    /// taking every second after it, so the stages partition the run's seconds.</summary>
    public static IReadOnlyList<StageSummary> ForStages(IReadOnlyList<SecondSnapshot> seconds, IReadOnlyList<int> stageSeconds, bool requestUnitsReported = true)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentNullException.ThrowIfNull(stageSeconds);
        var stages = new List<StageSummary>();
        var runSeconds = seconds.Count == 0 ? 0 : seconds.Max(s => s.Index) + 1;
        long first = 0;
        for (var k = 0; k < stageSeconds.Count && first < runSeconds; k++)
        {
            var isLast = k == stageSeconds.Count - 1 || first + stageSeconds[k] >= runSeconds;
            var last = isLast ? runSeconds - 1 : first + stageSeconds[k] - 1;
            var window = seconds.Where(s => s.Index >= first && s.Index <= last).ToList();
            var duration = TimeSpan.FromTicks(window.Sum(s => s.Duration.Ticks));
            var totals = SecondTotals.Sum(window);
            var latency = ShardMerge.Merge(window.Select(s => s.LatencyHistogram));
            stages.Add(new StageSummary
            {
                Index = k,
                FirstSecond = (int)first,
                LastSecond = (int)last,
                Duration = duration,
                Ok = totals.Ok,
                OkRequests = totals.OkRequests,
                Throttled = totals.Throttled,
                Errors = totals.Errors,
                Issued = totals.Issued,
                Dropped = totals.Dropped,
                GivenUpRequests = totals.GivenUpRequests,
                Abandoned = totals.Abandoned,
                NotStarted = totals.NotStarted,
                SentLate = totals.SentLate,
                InFlightAtStart = seconds.Where(s => s.Index == first - 1).Select(s => s.InFlight).FirstOrDefault(),
                InFlightAtEnd = window.Count == 0 ? 0 : window.MaxBy(s => s.Index)!.InFlight,
                ClientLimitedSeconds = window.Count(s => s.IsClientLimited),
                Throughput = totals.Throughput(duration.TotalSeconds),
                LatencyP50Ms = latency.Count == 0 ? null : latency.MillisecondsAtPercentile(50),
                LatencyP99Ms = latency.Count == 0 ? null : latency.MillisecondsAtPercentile(99),
                ThrottledFraction = totals.ThrottledFraction,
                TotalRequestUnits = requestUnitsReported ? totals.RequestUnits : null,
                RequestUnitsPerSecond = requestUnitsReported && duration > TimeSpan.Zero ? totals.RequestUnits / duration.TotalSeconds : null,
                MeanClientCpuPercent = window.Count == 0 ? 0 : window.Average(s => s.ClientCpuPercent),
                MaxClientCpuPercent = window.Count == 0 ? 0 : window.Max(s => s.ClientCpuPercent),
            });
            if (isLast)
            {
                break;
            }

            first = last + 1;
        }

        return stages;
    }

    private static (double? Run, double? Month) Cost(IReadOnlyList<SecondSnapshot> seconds, TimeSpan elapsed, double? provisioned, SummaryOptions options)
    {
        if (provisioned is not { } ru)
        {
            return (null, null);
        }

        if (options.Autoscale)
        {
            var (run, month) = ThroughputCost.Autoscale(
                ru,
                seconds.Select(s => ((s.Elapsed - s.Duration).TotalSeconds, s.Duration.TotalSeconds, s.RequestUnits)),
                elapsed.TotalSeconds,
                options.DollarsPer100RuHour);
            return (run, month);
        }

        return (ProvisionedCost(ru, elapsed.TotalHours, options.DollarsPer100RuHour), ProvisionedCost(ru, HoursPerMonth, options.DollarsPer100RuHour));
    }

    /// <summary>The steady-state window over <paramref name="seconds"/>; see <see cref="SteadyStateWindow"/>.</summary>
    public static SteadyStateWindow FindSteadyState(IReadOnlyList<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var all = seconds.Where(s => s.IsFull).ToList();
        if (all.Count < MinSteadySeconds)
        {
            return new SteadyStateWindow { Absence = NoSteadyState.TooShort };
        }

        // The service's seconds only: a second the client starved says nothing of warm-up or cool-down.
        var full = ServiceSeconds(all);

        // Half the median rate of the seconds that landed something: a stall's empty seconds neither lower the bar (a second of
        // 5 as the stall began would pass half of a median near 0) nor make a window of their own.
        var landed = full.Where(s => s.Ok > 0).Select(s => (double)s.Ok).ToList();
        if (landed.Count == 0)
        {
            return new SteadyStateWindow { Absence = NoSteadyState.NothingLanded };
        }

        var threshold = Median(landed) / 2;
        var first = full.First(s => s.Ok >= threshold).Index;
        var last = full.Last(s => s.Ok >= threshold).Index;
        // A steady state takes a few seconds to show: fewer of the service's seconds are none (as a sweep's step needs as many
        // to be judged on them).
        return full.Count(s => s.Index >= first && s.Index <= last) >= MinSteadySeconds ? ForWindow(seconds, first, last)
            : new SteadyStateWindow { Absence = full.Count < MinSteadySeconds ? NoSteadyState.ClientLimited : NoSteadyState.TooFewSteadySeconds };
    }

    /// <summary>The fewest of the service's seconds a steady-state window holds.</summary>
    public const int MinSteadySeconds = 3;

    /// <summary>Throughput, RU/s and throttled share over the seconds <paramref name="first"/>..<paramref name="last"/>, leaving
    /// out (and counting) the client-limited ones.</summary>
    public static SteadyStateWindow ForWindow(IReadOnlyList<SecondSnapshot> seconds, int first, int last)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var inside = seconds.Where(s => s.Index >= first && s.Index <= last).ToList();
        var window = ServiceSeconds(inside);
        var duration = window.Sum(s => s.Duration.TotalSeconds);
        // Summed as doubles, as the figures are, not as SecondTotals' longs: counts of stored seconds (an imported run's
        // included) cannot overflow them.
        var responses = window.Sum(s => (double)s.OkRequests + s.Throttled + s.Errors);
        return new SteadyStateWindow
        {
            FirstSecond = first,
            LastSecond = last,
            MeanThroughput = duration > 0 ? window.Sum(s => (double)s.Ok) / duration : 0,
            RequestUnitsPerSecond = duration > 0 ? window.Sum(s => s.RequestUnits) / duration : 0,
            ThrottledFraction = responses == 0 ? 0 : window.Sum(s => (double)s.Throttled) / responses,
            SecondsLeftOut = inside.Count - window.Count,
        };
    }

    /// <summary>The seconds whose figures were the service's (not client-limited); all of them when the client was the limit
    /// in every one (then every figure is the client's, and says so, rather than none).</summary>
    public static List<SecondSnapshot> ServiceSeconds(IReadOnlyList<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var service = seconds.Where(s => !s.IsClientLimited).ToList();
        return service.Count == 0 ? [.. seconds] : service;
    }

    /// <summary>The client-limited seconds as spans of consecutive seconds, each with the reason of its worst second.</summary>
    public static IReadOnlyList<ClientLimitedSpan> ClientLimitedSpans(IReadOnlyList<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var spans = new List<ClientLimitedSpan>();
        var run = new List<SecondSnapshot>();
        foreach (var second in seconds.OrderBy(s => s.Index).Append(null))
        {
            if (second is { IsClientLimited: true } && (run.Count == 0 || run[^1].Index == second.Index - 1))
            {
                run.Add(second);
                continue;
            }

            if (run.Count > 0)
            {
                var worst = run.MaxBy(s => Pressure(s, ClientLimits.Default))!;
                var kinds = run.Aggregate(ClientLimitKinds.None, (all, s) => all | KindsOf(s));
                spans.Add(new ClientLimitedSpan
                {
                    FirstSecond = run[0].Index,
                    LastSecond = run[^1].Index,
                    Limits = kinds,
                    Reason = ClientLimits.Describe(KindsOf(worst), worst.ClientCpuPercent, worst.Health ?? new ClientHealth()),
                });
                run.Clear();
            }

            if (second is { IsClientLimited: true })
            {
                run.Add(second);
            }
        }

        return spans;
    }

    /// <summary>The second closest to, or furthest past, one of <paramref name="limits"/>' bounds; null when no second has
    /// client health.</summary>
    public static ClientSecond? WorstClientSecond(IReadOnlyList<SecondSnapshot> seconds, ClientLimits limits)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentNullException.ThrowIfNull(limits);
        // A closing second too short to judge (SecondSnapshot.ShortestJudged) is no candidate, unless it is all there is.
        var measured = seconds.Where(s => s.Health is not null).ToList();
        var judged = measured.Where(s => s.Duration >= SecondSnapshot.ShortestJudged).ToList();
        var worst = (judged.Count > 0 ? judged : measured).MaxBy(s => Pressure(s, limits));
        return worst is null ? null : new ClientSecond
        {
            Index = worst.Index,
            ClientCpuPercent = worst.ClientCpuPercent,
            Health = worst.Health!,
            Reason = ClientLimits.Describe(KindsOf(worst), worst.ClientCpuPercent, worst.Health!),
        };
    }

    private static ClientLimitKinds KindsOf(SecondSnapshot second) =>
        second.Health?.Limits ?? (second.IsClientLimited ? ClientLimitKinds.ProcessCpu : ClientLimitKinds.None);

    /// <summary>How near the second came to a bound: its largest figure ÷ bound (≥ 1 past a bound).</summary>
    private static double Pressure(SecondSnapshot second, ClientLimits limits)
    {
        var h = second.Health;
        double Ratio(double? value, double? bound) => value is { } v && bound is > 0 ? v / bound.Value : 0;
        return new[]
        {
            Ratio(second.ClientCpuPercent, limits.ProcessCpuPercent),
            Ratio(h?.HostCpuPercent, limits.HostCpuPercent),
            Ratio(h?.SchedulingLagP99Ms, limits.SchedulingLagP99Ms),
            Ratio(h?.ThreadPoolQueueMax, limits.ThreadPoolQueue),
            Ratio(h?.GcPauseMs, limits.GcPauseMs),
            Ratio(h?.SchedulingLagMaxMs, limits.PauseMs),
            // Lateness only where it was judged (seconds before the bound existed read as they always did).
            Ratio(second.Issued > 0 && h?.Limits.HasFlag(ClientLimitKinds.SenderBehind) == true ? second.SentLate * 100.0 / second.Issued : null, limits.SentLatePercent),
        }.Max();
    }

    /// <summary>Nearest-rank percentile: the smallest value with at least <paramref name="percentile"/> % of values at or below it.</summary>
    public static double NearestRank(IReadOnlyList<double> values, double percentile)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            return 0;
        }

        var sorted = values.Order().ToArray();
        var rank = (int)Math.Ceiling((percentile / 100 * sorted.Length) - 1e-9);
        return sorted[Math.Clamp(rank, 1, sorted.Length) - 1];
    }

    /// <summary>The mean of the highest <paramref name="percent"/> % of <paramref name="values"/> (the count rounded down, as
    /// Microsoft's Cosmos DB benchmark tool does, but at least one value); 0 when there are none.</summary>
    public static double TopMean(IReadOnlyList<double> values, double percent)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            return 0;
        }

        var take = Math.Max(1, (int)(percent / 100 * values.Count));
        return values.OrderDescending().Take(take).Average();
    }

    private static LatencySummary Summarise(LatencyDistribution h) => h.Count == 0 ? new LatencySummary() : new()
    {
        Count = h.Count,
        MeanMs = h.MeanMicroseconds / 1000,
        P50Ms = h.MillisecondsAtPercentile(50),
        P75Ms = h.MillisecondsAtPercentile(75),
        P90Ms = h.MillisecondsAtPercentile(90),
        P95Ms = h.MillisecondsAtPercentile(95),
        P96Ms = h.MillisecondsAtPercentile(96),
        P98Ms = h.MillisecondsAtPercentile(98),
        P99Ms = h.MillisecondsAtPercentile(99),
        P999Ms = h.MillisecondsAtPercentile(99.9),
        MaxMs = h.MaxMicroseconds / 1000.0,
    };

    private static double Median(List<double> values)
    {
        values.Sort();
        var mid = values.Count / 2;
        return values.Count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}
