using System.Globalization;
using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchWeb.Live;

/// <summary>What the tiles of a run say, formatted once. The live page renders it for the seconds it loaded; the
/// runner sends it beside each second, so every browser watching the run sets the same texts without asking the
/// server. Each text goes to the element whose <c>data-tile</c> is its property's name in kebab case
/// (<see cref="TotalOkDetail"/> to <c>data-tile="total-ok-detail"</c>); a null text is a tile the run does not show.</summary>
public sealed record RunTileTexts
{
    private static readonly CultureInfo Usd = CultureInfo.GetCultureInfo("en-US");

    public string Elapsed { get; init; } = "";

    /// <summary>Share of the run done, 0–1, for the progress bar; null when the run stops on neither a count nor a duration.</summary>
    public double? ProgressShare { get; init; }

    public string? Progress { get; init; }

    public string TotalOk { get; init; } = "";

    public string TotalOkDetail { get; init; } = "";

    /// <summary>Null once the run has ended: the average says it then.</summary>
    public string? CurrentRate { get; init; }

    /// <summary>Open loop only: requests sent per second beside the offered rate.</summary>
    public string? AchievedRate { get; init; }

    public string? Dropped { get; init; }

    /// <summary>More than 1 % of the requests due were not sent.</summary>
    public bool DroppedWarn { get; init; }

    public string AverageRate { get; init; } = "";

    public string Throttled { get; init; } = "";

    /// <summary>More than 5 % of the responses were throttles.</summary>
    public bool ThrottledWarn { get; init; }

    public string RuPerInsert { get; init; } = "";

    public string RuPerInsertDetail { get; init; } = "";

    public string Cost { get; init; } = "";

    public string CostDetail { get; init; } = "";

    /// <summary>Why the last second was client-limited, in words, while the run goes on; null when it was not.</summary>
    public string? ClientLimit { get; init; }

    public static RunTileTexts Of(RunLiveState state, RunStatus status)
    {
        ArgumentNullException.ThrowIfNull(state);
        var culture = CultureInfo.CurrentCulture;
        var active = status is RunStatus.Queued or RunStatus.Running;
        var progress = status == RunStatus.Completed ? 1 : state.Progress;
        var left = active && state.EstimatedTimeLeft is { } time ? string.Create(culture, $" · about {FormatDuration(time)} left") : "";
        var ru = state.RequestUnitsReported;
        var autoscale = state.ProvisionedAutoscale;
        return new RunTileTexts
        {
            Elapsed = ElapsedText.Format(TimeSpan.FromSeconds(state.Elapsed)),
            ProgressShare = progress,
            Progress = progress is { } share ? share.ToString("P0", culture) + left : null,
            TotalOk = state.TotalOk.ToString("N0", culture),
            TotalOkDetail = string.Create(culture, $"{state.TotalThrottled:N0} throttled · {state.TotalErrors:N0} errors")
                + (state.TotalGivenUp > 0 ? string.Create(culture, $" · {state.TotalGivenUp:N0} given up") : ""),
            CurrentRate = active ? state.CurrentRate.ToString("N0", culture) : null,
            AchievedRate = state.OfferedRate is { } offered
                ? (state.SendingRecorded ? state.AchievedRate.ToString("N0", culture) : "—") + " / " + offered.ToString("N0", culture)
                : null,
            Dropped = state.OfferedRate is null ? null
                : "requests/s · " + (state.SendingRecorded
                    ? string.Create(culture, $"{state.TotalUnsent:N0} due but not sent ({state.DroppedFraction:P1})")
                    : "sent and unsent not recorded for this run"),
            DroppedWarn = state.OfferedRate is not null && state.DroppedFraction > 0.01,
            AverageRate = state.AverageRate.ToString("N0", culture),
            Throttled = state.ThrottledFraction.ToString("P2", culture),
            ThrottledWarn = state.ThrottledFraction > 0.05,
            RuPerInsert = ru ? state.RequestUnitsPerInsert?.ToString("N2", culture) ?? "—" : "n/a",
            RuPerInsertDetail = !ru ? "the target has no request units"
                : state.ProvisionedRequestUnits is { } provisioned
                    ? string.Create(culture, $"RU a document · {provisioned:N0} RU/s provisioned") + (autoscale ? " (autoscale max)" : "")
                    : "provisioned RU/s unknown",
            Cost = state.EstimatedCost is { } cost ? cost.ToString("C4", Usd) : ru ? "unknown" : "n/a",
            CostDetail = state.EstimatedCostPerMonth is { } month
                ? month.ToString("C0", Usd) + "/month provisioned" + (autoscale ? " (autoscale, 1.5 × at the peak)" : "")
                : ru ? "provisioned RU/s could not be read" : "no provisioned RU/s",
            ClientLimit = active ? state.ClientLimit : null,
        };
    }

    private static string FormatDuration(TimeSpan t) =>
        t.ToString(t.TotalHours >= 1 ? @"h\:mm\:ss" : @"m\:ss", CultureInfo.InvariantCulture);
}
