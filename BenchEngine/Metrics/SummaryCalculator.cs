namespace BenchEngine.Metrics;

/// <summary>Computes a <see cref="RunSummary"/> from a run's seconds and its latency histogram.</summary>
public static class SummaryCalculator
{
    /// <summary>US dollars per 100 RU/s per hour of provisioned throughput (single-region, manual).</summary>
    public const double DefaultDollarsPer100RuHour = 0.008;

    /// <summary>Client CPU at or above this share of all cores marks a run as limited by the client.</summary>
    public const double ClientBoundCpuPercent = 85;

    /// <summary>Hours in the month Azure prices by.</summary>
    public const double HoursPerMonth = 730;

    /// <summary>What provisioning this many RU/s costs for this many hours.</summary>
    public static double ProvisionedCost(double requestUnitsPerSecond, double hours, double dollarsPer100RuHour = DefaultDollarsPer100RuHour) =>
        requestUnitsPerSecond / 100 * dollarsPer100RuHour * hours;

    public static RunSummary Calculate(
        IReadOnlyList<SecondSnapshot> seconds,
        LatencyDistribution latency,
        bool latencyIsPerBatch = false,
        double? provisionedRuPerSecond = null,
        double dollarsPer100RuHour = DefaultDollarsPer100RuHour)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        ArgumentNullException.ThrowIfNull(latency);

        var elapsed = seconds.Count == 0 ? TimeSpan.Zero : seconds[^1].Elapsed;
        long ok = 0, okRequests = 0, throttled = 0, errors = 0;
        double ru = 0, maxCpu = 0;
        var errorsByStatus = new Dictionary<int, long>();
        foreach (var second in seconds)
        {
            ok += second.Ok;
            okRequests += second.OkRequests;
            throttled += second.Throttled;
            errors += second.Errors;
            ru += second.RequestUnits;
            maxCpu = Math.Max(maxCpu, second.ClientCpuPercent);
            foreach (var (status, count) in second.ErrorsByStatus)
            {
                errorsByStatus[status] = errorsByStatus.GetValueOrDefault(status) + count;
            }
        }

        var fullSeconds = seconds.Where(IsFullSecond).ToList();
        var perSecond = fullSeconds.Select(s => (double)s.Ok).ToList();
        var responses = okRequests + throttled + errors;
        var hours = elapsed.TotalHours;
        return new RunSummary
        {
            Elapsed = elapsed,
            TotalOk = ok,
            TotalOkRequests = okRequests,
            TotalThrottled = throttled,
            TotalErrors = errors,
            ErrorsByStatus = errorsByStatus,
            AverageThroughput = elapsed > TimeSpan.Zero ? ok / elapsed.TotalSeconds : 0,
            MeanPerSecondThroughput = perSecond.Count == 0 ? 0 : perSecond.Average(),
            P99PerSecondThroughput = NearestRank(perSecond, 99),
            Latency = Summarise(latency),
            LatencyIsPerBatch = latencyIsPerBatch,
            TotalRequestUnits = ru,
            RequestUnitsPerSecond = elapsed > TimeSpan.Zero ? ru / elapsed.TotalSeconds : 0,
            RequestUnitsPerInsert = ok == 0 ? 0 : ru / ok,
            ThrottledFraction = responses == 0 ? 0 : (double)throttled / responses,
            ProvisionedRequestUnitsPerSecond = provisionedRuPerSecond,
            EstimatedCostOfRun = provisionedRuPerSecond is { } forRun ? ProvisionedCost(forRun, hours, dollarsPer100RuHour) : null,
            EstimatedCostPerMonth = provisionedRuPerSecond is { } forMonth ? ProvisionedCost(forMonth, HoursPerMonth, dollarsPer100RuHour) : null,
            SteadyState = FindSteadyState(seconds),
            MaxClientCpuPercent = maxCpu,
            ClientBound = maxCpu >= ClientBoundCpuPercent,
        };
    }

    /// <summary>The steady-state window over <paramref name="seconds"/>; see <see cref="SteadyStateWindow"/>.</summary>
    public static SteadyStateWindow FindSteadyState(IReadOnlyList<SecondSnapshot> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var full = seconds.Where(IsFullSecond).ToList();
        if (full.Count == 0)
        {
            return new SteadyStateWindow();
        }

        var threshold = Median(full.Select(s => (double)s.Ok).ToList()) / 2;
        var first = full.First(s => s.Ok >= threshold).Index;
        var last = full.Last(s => s.Ok >= threshold).Index;
        return ForWindow(seconds, first, last);
    }

    /// <summary>Throughput, RU/s and throttled share over the seconds <paramref name="first"/>..<paramref name="last"/>.</summary>
    public static SteadyStateWindow ForWindow(IReadOnlyList<SecondSnapshot> seconds, int first, int last)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var window = seconds.Where(s => s.Index >= first && s.Index <= last).ToList();
        var duration = window.Sum(s => s.Duration.TotalSeconds);
        var responses = window.Sum(s => s.OkRequests + s.Throttled + s.Errors);
        return new SteadyStateWindow
        {
            FirstSecond = first,
            LastSecond = last,
            MeanThroughput = duration > 0 ? window.Sum(s => s.Ok) / duration : 0,
            RequestUnitsPerSecond = duration > 0 ? window.Sum(s => s.RequestUnits) / duration : 0,
            ThrottledFraction = responses == 0 ? 0 : (double)window.Sum(s => s.Throttled) / responses,
        };
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

    private static LatencySummary Summarise(LatencyDistribution h) => new()
    {
        Count = h.Count,
        MeanMs = h.MeanMicroseconds / 1000,
        P50Ms = h.MillisecondsAtPercentile(50),
        P95Ms = h.MillisecondsAtPercentile(95),
        P96Ms = h.MillisecondsAtPercentile(96),
        P99Ms = h.MillisecondsAtPercentile(99),
        P999Ms = h.MillisecondsAtPercentile(99.9),
        MaxMs = h.MaxMicroseconds / 1000.0,
    };

    private static bool IsFullSecond(SecondSnapshot s) => s.Duration >= TimeSpan.FromSeconds(0.999);

    private static double Median(List<double> values)
    {
        values.Sort();
        var mid = values.Count / 2;
        return values.Count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}
