using System.ComponentModel.DataAnnotations;

namespace BenchWeb.Guard.Administration;

/// <summary>The installation's default limits (section <c>BenchWeb:Limits</c>), in force until an administrator sets
/// their own on the settings page. Every run is checked against them when it is launched.</summary>
public sealed class InstallationLimitsOptions
{
    public const string SectionName = "BenchWeb:Limits";

    /// <summary>Longest run, in seconds (default a day). A plan without a duration is stopped here.</summary>
    [Range(1, InstallationLimits.MaxDurationCeiling)]
    public double MaxDurationSeconds { get; set; } = 86_400;

    /// <summary>Most documents one run writes (default 100 million). A plan without a count is stopped here.</summary>
    [Range(1, long.MaxValue)]
    public long MaxDocuments { get; set; } = 100_000_000;

    /// <summary>Most workers or requests in flight (<c>Load.Concurrency</c>; default 1,000).</summary>
    [Range(1, InstallationLimits.MaxConcurrencyCeiling)]
    public int MaxConcurrency { get; set; } = 1_000;

    /// <summary>Fastest open-loop rate, requests per second (default 100,000).</summary>
    [Range(1, InstallationLimits.MaxRateCeiling)]
    public double MaxRatePerSecond { get; set; } = 100_000;

    /// <summary>Most RU/s a run may provision when it creates a Cosmos DB container (manual, or autoscale's maximum;
    /// default 50,000, about $2,900 a month if left running). The simulator is exempt: it provisions nothing.</summary>
    [Range(400, InstallationLimits.MaxRequestUnitsCeiling)]
    public int MaxRequestUnits { get; set; } = 50_000;
}
