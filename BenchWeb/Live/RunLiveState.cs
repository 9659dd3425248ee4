using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;

namespace BenchWeb.Live;

/// <summary>What the live tiles show, from the seconds received so far (in any order, duplicates ignored).</summary>
public sealed class RunLiveState
{
    private readonly SortedDictionary<int, RunSecondEntity> _seconds = [];

    /// <param name="documentLimit">The plan's document count, if it stops on one (for progress and ETA).</param>
    /// <param name="durationSeconds">The plan's duration, if it stops on one.</param>
    /// <param name="provisionedRequestUnits">The target's provisioned RU/s, if known (for the cost estimate).</param>
    /// <param name="batchSize">Documents per request, to count documents that failed towards progress.</param>
    public RunLiveState(long? documentLimit, double? durationSeconds, double? provisionedRequestUnits, int batchSize = 1)
    {
        DocumentLimit = documentLimit;
        DurationSeconds = durationSeconds;
        ProvisionedRequestUnits = provisionedRequestUnits;
        BatchSize = Math.Max(1, batchSize);
    }

    /// <summary>The tiles of a run as its row describes it (plan, target), before any second.</summary>
    public static RunLiveState For(RunEntity run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var plan = RunPlan.FromJson(run.PlanJson);
        return new RunLiveState(plan.DocumentLimit, plan.EffectiveDurationSeconds, run.ProvisionedRequestUnits, plan.Load.BatchSize)
        {
            RequestUnitsReported = run.RequestUnitsReported ?? run.TargetKind.ReportsRequestUnits(),
            ProvisionedAutoscale = run.ProvisionedAutoscale,
            OfferedRate = plan.Load.OfferedRatePerSecond,
        };
    }

    /// <summary>A last, partial second shorter than this is not scaled up to a rate: 13 documents in 7 ms are
    /// not 1,857 inserts/s.</summary>
    public const double ShortestRateSecond = 0.5;

    /// <summary>Whether the target reports request units: when it does not (Table Storage), RU tiles say "n/a", never 0.</summary>
    public bool RequestUnitsReported { get; init; } = true;

    /// <summary><see cref="ProvisionedRequestUnits"/> is an autoscale maximum: priced at 1.5 × on the peak second.</summary>
    public bool ProvisionedAutoscale { get; init; }

    /// <summary>Open loop: the plan's rate, requests/s.</summary>
    public double? OfferedRate { get; init; }

    public int BatchSize { get; }

    public long? DocumentLimit { get; }

    public double? DurationSeconds { get; }

    public double? ProvisionedRequestUnits { get; set; }

    /// <summary>The highest second index received, or -1.</summary>
    public int LastIndex => _seconds.Count == 0 ? -1 : _seconds.Keys.Max();

    public RunSecondEntity? Latest => _seconds.Count == 0 ? null : _seconds[LastIndex];

    public double Elapsed => Latest?.ElapsedSeconds ?? 0;

    /// <summary>The seconds received, added up.</summary>
    public SecondTotals Totals { get; private set; }

    public long TotalOk => Totals.Ok;

    public long TotalThrottled => Totals.Throttled;

    public long TotalErrors => Totals.Errors;

    /// <summary>Requests sent.</summary>
    public long TotalIssued => Totals.Issued;

    /// <summary>Open loop: requests due but not sent (dropped, or not started by the stop).</summary>
    public long TotalUnsent => Totals.Unsent;

    /// <summary>Documents given up after their throttle retries ran out.</summary>
    public long TotalGivenUp => Totals.GivenUp;

    public double TotalRequestUnits => Totals.RequestUnits;

    /// <summary>Adds seconds; one it has already is not counted again.</summary>
    public void Add(IEnumerable<RunSecondEntity> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        foreach (var second in seconds)
        {
            if (_seconds.TryAdd(second.Index, second))
            {
                Totals += second.ToTotals();
            }
        }
    }

    /// <summary>Inserts/s in the last full second: a last, partial second is never scaled up to a rate.</summary>
    public double CurrentRate => _seconds.Values.LastOrDefault(s => s.DurationSeconds >= SecondSnapshot.FullSecond.TotalSeconds) is { } full ? full.Ok / full.DurationSeconds : 0;

    /// <summary>Whether the seconds count the requests sent: every response follows a sent request, so responses beside
    /// none sent are seconds saved before BenchWeb counted them (their sent and unsent figures are unknown, not 0).</summary>
    public bool SendingRecorded => TotalIssued > 0 || Totals.Responses == 0;

    /// <summary>Open loop: requests sent per second over the run so far (beside the offered rate).</summary>
    public double AchievedRate => Elapsed >= SecondSnapshot.FullSecond.TotalSeconds ? TotalIssued / Elapsed : 0;

    /// <summary>Open loop: requests due but not sent ÷ requests due.</summary>
    public double DroppedFraction => Totals.DroppedFraction;

    /// <summary>Inserts/s over the run so far (ok ÷ elapsed, the summary's definition).</summary>
    public double AverageRate => Totals.Throughput(Elapsed);

    public double ThrottledFraction => Totals.Responses > 0 ? TotalThrottled / (double)Totals.Responses : 0;

    /// <summary>Null when the target reports no request units ("n/a") or nothing landed yet.</summary>
    public double? RequestUnitsPerInsert => RequestUnitsReported ? Totals.RequestUnitsPerInsert : null;

    /// <summary>Documents the run is done with: landed, or failed (a failed request counts its whole batch).
    /// Throttled requests are retried, so they are not done until they land or fail.</summary>
    public long DocumentsDone => TotalOk + (TotalErrors * BatchSize);

    /// <summary>Share of the run done, 0–1, from the document count or the duration (whichever is further).</summary>
    public double? Progress
    {
        get
        {
            double? byCount = DocumentLimit is > 0 ? Math.Min(1, DocumentsDone / (double)DocumentLimit.Value) : null;
            double? byTime = DurationSeconds is > 0 ? Math.Min(1, Elapsed / DurationSeconds.Value) : null;
            return byCount is null ? byTime : byTime is null ? byCount : Math.Max(byCount.Value, byTime.Value);
        }
    }

    /// <summary>Time left: at the average rate for a count, the clock for a duration, whichever ends first.</summary>
    public TimeSpan? EstimatedTimeLeft
    {
        get
        {
            var doneRate = Elapsed > 0 ? DocumentsDone / Elapsed : 0;
            double? byCount = DocumentLimit is > 0 && doneRate > 0 ? Math.Max(0, (DocumentLimit.Value - DocumentsDone) / doneRate) : null;
            double? byTime = DurationSeconds is > 0 ? Math.Max(0, DurationSeconds.Value - Elapsed) : null;
            var seconds = byCount is null ? byTime : byTime is null ? byCount : Math.Min(byCount.Value, byTime.Value);
            return seconds is null ? null : TimeSpan.FromSeconds(Math.Round(seconds.Value));
        }
    }

    /// <summary>Cost of the provisioned throughput for the time run so far, at the list price.</summary>
    /// <remarks>Null when the provisioned throughput is unknown or the target has none: nothing is priced then.</remarks>
    public double? EstimatedCost => Cost().Run;

    /// <summary>The provisioned throughput's cost for a month (730 h); for autoscale, at the peak so far.</summary>
    public double? EstimatedCostPerMonth => Cost().Month;

    private (double? Run, double? Month) Cost()
    {
        if (!RequestUnitsReported || ProvisionedRequestUnits is not { } ru)
        {
            return (null, null);
        }

        if (ProvisionedAutoscale)
        {
            var (run, month) = ThroughputCost.Autoscale(ru, _seconds.Values.Select(s => (s.ElapsedSeconds - s.DurationSeconds, s.DurationSeconds, s.RequestUnits)), Elapsed);
            return (run, month);
        }

        return (SummaryCalculator.ProvisionedCost(ru, Elapsed / 3600), SummaryCalculator.ProvisionedCost(ru, SummaryCalculator.HoursPerMonth));
    }

    /// <summary>Why the last second was client-limited, in words ("the client was starved: scheduling lag p99 180 ms, host CPU
    /// 100 %, this process 22 %"): the summary's one verdict (<see cref="SecondSnapshot.IsClientLimited"/>) and its words. Null
    /// when the last second was not client-limited.</summary>
    public string? ClientLimit => Latest is { } latest && SummaryCalculator.ClientLimitedSpans([latest.ToSnapshot()]) is [var span]
        ? span.Reason
        : null;
}
