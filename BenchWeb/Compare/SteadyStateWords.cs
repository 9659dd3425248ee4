using System.Globalization;
using BenchEngine.Metrics;

namespace BenchWeb.Compare;

/// <summary>Why a run has no steady-state window, in the words the run page's summary and its window panel both use.</summary>
public static class SteadyStateWords
{
    /// <summary>The reason, without a leading capital ("the client was the limit in 57 seconds, leaving fewer than 3 of the
    /// service's seconds (a window needs 3)"); null when the run has a window.</summary>
    public static string? WhyNone(RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        var window = summary.SteadyState;
        if (window.Seconds > 0)
        {
            return null;
        }

        var needs = SummaryCalculator.MinSteadySeconds;
        var limited = summary.ClientLimitedSeconds;
        var client = string.Create(CultureInfo.InvariantCulture, $"the client was the limit in {limited:N0} second{(limited == 1 ? "" : "s")}, leaving fewer than {needs} of the service's seconds (a window needs {needs})");
        return window.Absence switch
        {
            NoSteadyState.TooShort => string.Create(CultureInfo.InvariantCulture, $"the run was too short: it had fewer than {needs} full seconds (a window needs {needs})"),
            NoSteadyState.NothingLanded => "no full second landed anything",
            NoSteadyState.ClientLimited => client,
            NoSteadyState.TooFewSteadySeconds => string.Create(CultureInfo.InvariantCulture, $"fewer than {needs} of the service's seconds lay between the first and the last at half the median rate or more{(limited > 0 ? $" ({limited:N0} client-limited second{(limited == 1 ? "" : "s")} left out)" : "")}"),
            // Stored before the reason was kept: what the summary still tells.
            _ when PerSecondFigures.AllLeftOut(summary) => "the client was the limit in every second",
            _ when summary.Elapsed.TotalSeconds < needs => string.Create(CultureInfo.InvariantCulture, $"the run was too short: it had fewer than {needs} full seconds (a window needs {needs})"),
            _ when limited > 0 => client,
            _ => string.Create(CultureInfo.InvariantCulture, $"fewer than {needs} of the service's seconds ran at half the median rate or more"),
        };
    }
}
