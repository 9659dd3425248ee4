using System.Globalization;
using BenchEngine.Running;

namespace BenchEngine.Metrics;

/// <summary>Decides pass or fail of a run against its thresholds, from its summary.</summary>
public static class ThresholdEvaluator
{
    /// <param name="status">How the run ended: only a completed run can pass.</param>
    /// <param name="summary">The run's summary.</param>
    /// <param name="thresholds">The limits.</param>
    /// <param name="baselineThroughput">The baseline run's average throughput, when a baseline share is required.</param>
    public static Verdict Evaluate(RunStatus status, RunSummary summary, ThresholdOptions thresholds, double? baselineThroughput)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(thresholds);
        var checks = new List<ThresholdCheck>
        {
            new("completed", status == RunStatus.Completed, status == RunStatus.Completed ? "the run completed" : $"the run did not complete ({status})"),
        };

        // A run where nothing landed meets no limit, however low its throttling or latency look.
        if (summary.TotalOk == 0)
        {
            checks.Add(new("landed", false, Text($"no document landed ({summary.TotalErrors:N0} errors)")));
        }

        // Documents given up after their throttle retries ran out are not known to have landed: the run measured less than it wrote.
        if (summary.TotalGivenUp > 0)
        {
            checks.Add(new("given up", false, Text($"{summary.TotalGivenUp:N0} documents given up after their throttle retries ran out; {summary.TotalOk:N0} landed")));
        }

        if (thresholds.MinThroughput is { } minimum)
        {
            var actual = summary.AverageThroughput;
            checks.Add(new("throughput", actual >= minimum, Text($"average throughput {actual:N1}/s {(actual >= minimum ? "≥" : "<")} {minimum:N1}/s")));
        }

        if (thresholds.MaxP99LatencyMs is { } maxLatency)
        {
            var actual = summary.Latency.P99Ms;
            checks.Add(actual is null
                ? new("p99 latency", false, "no successful operation: no latency to check")
                : new("p99 latency", actual <= maxLatency, Text($"p99 latency {actual:N1} ms {(actual <= maxLatency ? "≤" : ">")} {maxLatency:N1} ms")));
        }

        if (thresholds.MaxThrottledPercent is { } maxThrottled)
        {
            var actual = summary.ThrottledFraction * 100;
            checks.Add(new("throttled", actual <= maxThrottled, Text($"throttled {actual:N2} % {(actual <= maxThrottled ? "≤" : ">")} {maxThrottled:N2} %")));
        }

        if (thresholds.MaxDroppedPercent is { } maxDropped)
        {
            var actual = summary.DroppedFraction * 100;
            checks.Add(new("dropped", actual <= maxDropped, Text($"requests due but not sent {actual:N2} % {(actual <= maxDropped ? "≤" : ">")} {maxDropped:N2} % ({summary.TotalUnsent:N0} of {summary.TotalIssued + summary.TotalUnsent:N0})")));
        }

        if (thresholds.MinShareOfBaseline is { } share)
        {
            if (baselineThroughput is not { } baseline || baseline <= 0)
            {
                checks.Add(new("baseline", false, Text($"no baseline throughput to compare with (required: ≥ {share:P0} of a baseline run)")));
            }
            else
            {
                var ratio = summary.AverageThroughput / baseline;
                checks.Add(new("baseline", ratio >= share, Text($"average throughput {ratio:P1} of the baseline's {baseline:N1}/s {(ratio >= share ? "≥" : "<")} {share:P0}")));
            }
        }

        return new Verdict { Passed = checks.TrueForAll(c => c.Passed), Checks = checks };
    }

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
