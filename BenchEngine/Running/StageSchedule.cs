namespace BenchEngine.Running;

/// <summary>The level a run's stages ask for at each instant of its clock (workers or requests/s), and for the open loop the
/// integral of that rate: request <c>n</c> is due when the requests due so far reach <c>n</c>.</summary>
/// <remarks>The level before the first stage is 0 (a linear first stage ramps up from nothing); after the last it stays at
/// the last stage's level (the grace period, a rate's last fraction of a request).</remarks>
internal sealed class StageSchedule
{
    private readonly (double Start, double Duration, double From, double To)[] _stages;

    public StageSchedule(IReadOnlyList<LoadStage> stages, Func<LoadStage, double> level)
    {
        ArgumentNullException.ThrowIfNull(stages);
        ArgumentOutOfRangeException.ThrowIfZero(stages.Count);
        _stages = new (double, double, double, double)[stages.Count];
        double start = 0, previous = 0;
        for (var i = 0; i < stages.Count; i++)
        {
            var to = level(stages[i]);
            _stages[i] = (start, stages[i].DurationSeconds, stages[i].Ramp == StageRamp.Linear ? previous : to, to);
            start += stages[i].DurationSeconds;
            previous = to;
        }
    }

    /// <summary>The level at <paramref name="seconds"/> of the run's clock.</summary>
    public double LevelAt(double seconds)
    {
        foreach (var (start, duration, from, to) in _stages)
        {
            if (seconds < start + duration)
            {
                return seconds <= start ? from : from + ((to - from) * (seconds - start) / duration);
            }
        }

        return _stages[^1].To;
    }

    /// <summary>Whole workers at <paramref name="seconds"/>: the level rounded, and at least one while the level is above 0.</summary>
    public int WorkersAt(double seconds)
    {
        var level = LevelAt(seconds);
        return level <= 0 ? 0 : Math.Max(1, (int)Math.Floor(level + 0.5));
    }

    /// <summary>Requests due from the start up to <paramref name="seconds"/>: the integral of the rate.</summary>
    public double RequestsDueBy(double seconds)
    {
        double due = 0;
        foreach (var (start, duration, from, to) in _stages)
        {
            var u = Math.Min(seconds - start, duration);
            if (u <= 0)
            {
                return due;
            }

            due += (from * u) + ((to - from) * u * u / (2 * duration));
            if (seconds < start + duration)
            {
                return due;
            }
        }

        var (lastStart, lastDuration, _, last) = _stages[^1];
        return due + (last * (seconds - lastStart - lastDuration));
    }

    /// <summary>When request <paramref name="n"/> (from 0) is due, in seconds of the run's clock: where the integral of the
    /// rate reaches <paramref name="n"/>. Infinity when it never does (a last stage at rate 0).</summary>
    public double SecondsOfRequest(double n)
    {
        double due = 0;
        foreach (var (start, duration, from, to) in _stages)
        {
            var inStage = (from + to) * duration / 2;
            if (due + inStage >= n)
            {
                var m = n - due;
                if (m <= 0)
                {
                    return start;
                }

                // from·u + k·u² = m, solved in the form that neither cancels nor divides by zero when the ramp is flat.
                var k = (to - from) / (2 * duration);
                var root = Math.Sqrt(Math.Max(0, (from * from) + (4 * k * m)));
                return start + Math.Min(duration, 2 * m / (from + root));
            }

            due += inStage;
        }

        var (lastStart, lastDuration, _, last) = _stages[^1];
        return last <= 0 ? double.PositiveInfinity : lastStart + lastDuration + ((n - due) / last);
    }
}
