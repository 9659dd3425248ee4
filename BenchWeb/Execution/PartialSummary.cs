using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Live;

namespace BenchWeb.Execution;

/// <summary>
/// Figures for runs that ended before their end was planned. A run cut short by a restart, or by a failure outside the
/// engine, ends without the engine's summary; its saved seconds still say what it did, so the engine's own
/// <see cref="SummaryCalculator"/> computes one from them, once, when the run is closed (and, for runs closed by an
/// earlier version, when the dashboard starts). It is stored like any summary, so lists sort and filter on it.
/// </summary>
/// <remarks>
/// A saved second keeps its own p50/p95/p99, not the latency histogram of its operations, and percentiles of
/// percentiles are not percentiles: a summary computed here has no latency (its <see cref="LatencySummary.Count"/>
/// is 0 although requests succeeded), and pages say "not kept" rather than show a figure that only looks exact.
/// Throughput, totals, RU, throttling, cost and the steady state are sums over seconds and come out exactly as the
/// engine would have computed them.
/// </remarks>
public static class PartialSummary
{
    /// <summary>A cancelled, interrupted or failed run: whatever figures it has cover only the part that ran.</summary>
    public static bool IsPartial(RunStatus status) => status is RunStatus.Cancelled or RunStatus.Interrupted or RunStatus.Failed;

    /// <summary>False for a summary computed from saved seconds: it has no latency percentiles over the run's operations.</summary>
    public static bool LatencyKept(RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        return summary.TotalOkRequests == 0 || summary.Latency.Count > 0;
    }

    /// <summary>True when the run measured nothing at all (it failed or was cancelled before its first second): a summary
    /// of zeros would only hide why.</summary>
    public static bool MeasuredNothing(RunSummary? summary) =>
        summary is null || (summary.Elapsed <= TimeSpan.Zero && summary.TotalOk == 0 && summary.TotalThrottled == 0 && summary.TotalErrors == 0);

    /// <summary>The summary of these saved seconds, as <see cref="SummaryCalculator"/> computes it, without latency.</summary>
    public static RunSummary FromSeconds(IReadOnlyList<RunSecondEntity> seconds, SummaryOptions options)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        var snapshots = seconds.OrderBy(s => s.Index).Select(s => s.ToSnapshot()).ToList();
        return SummaryCalculator.Calculate(snapshots, new LatencyDistribution(), options);
    }

    /// <summary>Gives <paramref name="run"/> a summary from its saved seconds when it has none and saved at least one; the
    /// caller saves. <paramref name="limits"/> are the configured client limits (they rank the run's worst client second).</summary>
    /// <returns>Whether the run got one.</returns>
    public static async Task<bool> FillAsync(BenchDbContext db, RunEntity run, ClientLimits limits, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(run);
        if (run.SummaryJson is not null)
        {
            return false;
        }

        var seconds = await db.RunSeconds.AsNoTracking().Where(s => s.RunId == run.Id).ToListAsync(cancellationToken);
        if (seconds.Count == 0)
        {
            return false;
        }

        var summary = FromSeconds(seconds, OptionsOf(run, limits));
        run.SummaryJson = JsonSerializer.Serialize(summary, RunPlan.JsonOptions);
        run.ElapsedSeconds = summary.Elapsed.TotalSeconds;
        run.AverageThroughput = summary.AverageThroughput;
        // Sorting by P99 puts runs without one last: better than a 0 that would sort as the fastest.
        run.P99LatencyMs = null;
        run.ThrottledFraction = summary.ThrottledFraction;
        return true;
    }

    /// <summary>Fills the summary of every ended run that has saved seconds but none (runs closed by a version that
    /// left them without); returns how many got one.</summary>
    public static async Task<int> FillMissingAsync(BenchDbContext db, ClientLimits limits, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(db);
        var runs = await db.Runs
            .Where(r => r.SummaryJson == null && r.Status != RunStatus.Queued && r.Status != RunStatus.Running && db.RunSeconds.Any(s => s.RunId == r.Id))
            .ToListAsync(cancellationToken);
        var filled = 0;
        foreach (var run in runs)
        {
            filled += await FillAsync(db, run, limits, cancellationToken) ? 1 : 0;
        }

        return filled;
    }

    // What the engine would have been told: the run's stored target figures and its plan's load. An unreadable snapshot
    // (from a newer version) still gets its throughput; only the per-batch note and the offered rate are lost.
    internal static SummaryOptions OptionsOf(RunEntity run, ClientLimits limits)
    {
        RunPlan? plan;
        try
        {
            plan = RunPlan.FromJson(run.PlanJson);
        }
        catch (RunPlanValidationException)
        {
            plan = null;
        }

        return new SummaryOptions
        {
            LatencyIsPerBatch = plan?.Load.BatchSize > 1,
            ProvisionedRequestUnitsPerSecond = run.ProvisionedRequestUnits,
            Autoscale = run.ProvisionedAutoscale,
            RequestUnitsReported = run.RequestUnitsReported ?? run.TargetKind.ReportsRequestUnits(),
            OfferedRequestsPerSecond = plan?.Load.OfferedRatePerSecond,
            // A staged run's stages partition these seconds too (their latencies only where the seconds kept theirs).
            StageSeconds = plan is null ? [] : [.. plan.Load.Stages.Select(s => s.DurationSeconds)],
            ClientLimits = limits,
        };
    }
}
