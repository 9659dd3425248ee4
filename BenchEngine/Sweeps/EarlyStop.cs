namespace BenchEngine.Sweeps;

/// <summary>Whether a series has stopped gaining throughput (<see cref="EarlyStopOptions"/>).</summary>
public static class EarlyStop
{
    /// <summary>True when the last <see cref="EarlyStopOptions.StepsWithoutGain"/> steps of the series each added less than
    /// <see cref="EarlyStopOptions.MinGainPercent"/> % to the best throughput of the steps before it.</summary>
    /// <param name="series">The series' steps so far, in the order they ran.</param>
    /// <param name="options">The rule; null never stops.</param>
    public static bool ShouldStop(IReadOnlyList<SweepStepResult> series, EarlyStopOptions? options)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (options is null || series.Count <= options.StepsWithoutGain)
        {
            return false;
        }

        for (var i = series.Count - options.StepsWithoutGain; i < series.Count; i++)
        {
            var best = series.Take(i).Max(s => s.Throughput);
            if (series[i].Throughput > best * (1 + (options.MinGainPercent / 100)))
            {
                return false;
            }
        }

        return true;
    }
}
