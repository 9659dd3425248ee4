namespace BenchEngine.Metrics;

/// <summary>What provisioned Cosmos DB throughput costs, at the list price: one formula for the run's summary and its live
/// tiles.</summary>
/// <remarks>Manual throughput is billed on the provisioned RU/s. Autoscale is billed hour by hour on the highest RU/s the
/// container scaled to in that hour — at least a tenth of the maximum — at 1.5 × the manual rate. The highest RU/s it scaled
/// to is taken as the most RU the run consumed in one second of the hour (counted from the run's start, not the clock's
/// hours), within those bounds. A run is charged for its own duration, not for whole hours.</remarks>
public static class ThroughputCost
{
    /// <summary>US dollars per 100 RU/s per hour of provisioned throughput (single-region, manual).</summary>
    public const double DefaultDollarsPer100RuHour = 0.008;

    /// <summary>Autoscale's rate relative to manual throughput.</summary>
    public const double AutoscaleRateFactor = 1.5;

    /// <summary>Autoscale never scales below this share of its maximum, so an idle hour still costs it.</summary>
    public const double AutoscaleFloorShare = 0.1;

    /// <summary>Hours in the month Azure prices by.</summary>
    public const double HoursPerMonth = 730;

    private const double SecondsPerHour = 3600;

    /// <summary>What provisioning this many RU/s manually costs for this many hours.</summary>
    public static double Manual(double requestUnitsPerSecond, double hours, double dollarsPer100RuHour = DefaultDollarsPer100RuHour) =>
        requestUnitsPerSecond / 100 * dollarsPer100RuHour * hours;

    /// <summary>The cost of a run (and of a month at its peak hour) under autoscale with the given maximum.</summary>
    /// <param name="maximum">The autoscale maximum, RU/s.</param>
    /// <param name="seconds">Each second of the run: its start (seconds from the run's start), its length and the RU it consumed.</param>
    /// <param name="elapsedSeconds">The run's length.</param>
    /// <param name="dollarsPer100RuHour">The manual rate.</param>
    public static (double Run, double Month) Autoscale(
        double maximum,
        IEnumerable<(double Start, double Duration, double RequestUnits)> seconds,
        double elapsedSeconds,
        double dollarsPer100RuHour = DefaultDollarsPer100RuHour)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var floor = maximum * AutoscaleFloorShare;
        var peaks = new Dictionary<int, double>();
        foreach (var (start, duration, requestUnits) in seconds)
        {
            // A last, partial second consumed its RU in less than a second: that many RU is what the second around it needed.
            var rate = requestUnits / Math.Max(duration, 1);
            var hour = (int)(Math.Max(0, start) / SecondsPerHour);
            peaks[hour] = Math.Max(peaks.GetValueOrDefault(hour), rate);
        }

        var hours = (int)Math.Ceiling(Math.Max(0, elapsedSeconds) / SecondsPerHour);
        double run = 0, highest = floor;
        for (var hour = 0; hour < hours; hour++)
        {
            var scaledTo = Math.Clamp(peaks.GetValueOrDefault(hour), floor, maximum);
            highest = Math.Max(highest, scaledTo);
            var inHour = Math.Min(elapsedSeconds, (hour + 1) * SecondsPerHour) - (hour * SecondsPerHour);
            run += Manual(scaledTo, inHour / SecondsPerHour, dollarsPer100RuHour) * AutoscaleRateFactor;
        }

        return (run, Manual(highest, HoursPerMonth, dollarsPer100RuHour) * AutoscaleRateFactor);
    }
}
