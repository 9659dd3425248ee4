namespace BenchEngine.Sweeps;

/// <summary>Whether a series has stopped gaining throughput (<see cref="EarlyStopOptions"/>).</summary>
public static class EarlyStop
{
    /// <summary>True when the last <see cref="EarlyStopOptions.StepsWithoutGain"/> steps of the series each added less than
    /// <see cref="EarlyStopOptions.MinGainPercent"/> % to the best throughput of the steps before it. Steps are taken as the
    /// knee judges them (steady throughput, a re-run in place of its step), and client-limited ones are passed over: a
    /// starved client's throughput says nothing of the service's gain.</summary>
    /// <param name="series">The series' steps so far, in the order they ran, re-runs included.</param>
    /// <param name="options">The rule; null never stops.</param>
    public static bool ShouldStop(IReadOnlyList<SweepStepResult> series, EarlyStopOptions? options)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (options is null)
        {
            return false;
        }

        var judged = KneeDetector.Judged(series).Where(s => !s.ClientLimited).ToList();
        if (judged.Count <= options.StepsWithoutGain)
        {
            return false;
        }

        for (var i = judged.Count - options.StepsWithoutGain; i < judged.Count; i++)
        {
            var best = judged.Take(i).Max(s => s.JudgedThroughput);
            if (judged[i].JudgedThroughput > best * (1 + (options.MinGainPercent / 100)))
            {
                return false;
            }
        }

        return true;
    }
}
