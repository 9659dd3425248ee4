using BenchEngine.Metrics;
using BenchEngine.Running;

namespace BenchEngine.Sweeps;

/// <summary>One step of a sweep as it ran: which step, how it ended and its summary figures. Kept apart from the step's
/// plan so that a sweep's results stay small enough to store and export.</summary>
public sealed record SweepStepResult
{
    /// <summary>The step's number in the sweep, from 0.</summary>
    public int Index { get; init; }

    /// <summary>The series' value; null without series.</summary>
    public string? Series { get; init; }

    /// <summary>The swept setting's value at this step.</summary>
    public string Value { get; init; } = "";

    public RunStatus Status { get; init; }

    /// <summary>Documents per second: the mean of the run's full seconds.</summary>
    public double Throughput { get; init; }

    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>Throttled responses ÷ all responses, as a percentage.</summary>
    public double ThrottledPercent { get; init; }

    /// <summary>The highest per-second client CPU %; null when it was not measured.</summary>
    public double? MaxClientCpuPercent { get; init; }

    public double? RequestUnitsPerSecond { get; init; }

    public double? ProvisionedRequestUnitsPerSecond { get; init; }

    /// <summary>Whether the step ran to an end that measured something (completed or stopped by a rule, with documents landed).</summary>
    public bool Measured => Status is RunStatus.Completed or RunStatus.Stopped && Throughput > 0;

    /// <summary>The figures of <paramref name="step"/> from the run that made them.</summary>
    public static SweepStepResult From(SweepStep step, RunStatus status, RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(step);
        ArgumentNullException.ThrowIfNull(summary);
        return new SweepStepResult
        {
            Index = step.Index,
            Series = step.Series,
            Value = step.Value,
            Status = status,
            Throughput = summary.MeanPerSecondThroughput > 0 ? summary.MeanPerSecondThroughput : summary.AverageThroughput,
            P50Ms = summary.Latency.P50Ms,
            P99Ms = summary.Latency.P99Ms,
            ThrottledPercent = summary.ThrottledFraction * 100,
            MaxClientCpuPercent = summary.MaxClientCpuPercent,
            RequestUnitsPerSecond = summary.RequestUnitsPerSecond,
            ProvisionedRequestUnitsPerSecond = summary.ProvisionedRequestUnitsPerSecond,
        };
    }
}
