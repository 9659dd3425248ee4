using System.Runtime.CompilerServices;
using BenchEngine.Targets;

namespace BenchEngine.Diagnostics;

/// <summary>
/// Keeps the current second's slowest requests: those at or over the threshold and the slowest few, at most
/// <see cref="DiagnosticsOptions.MaxPerSecond"/>, by reference only. Called for every final response under the run
/// recorder's lock, so a request that cannot be kept costs one comparison: its latency against a bar below which nothing
/// is kept (the threshold, the slowest-but-N so far, and once full the fastest kept). Only a request over the bar is
/// placed, among at most ten, with no allocation.
/// </summary>
internal sealed class SlowRequestSampler
{
    private readonly long _thresholdTicks;
    private readonly int _slowest;
    private readonly SlowRequestCandidate[] _kept = new SlowRequestCandidate[DiagnosticsOptions.MaxPerSecond];
    private int _count;
    private long _bar;

    /// <param name="options">Which requests are kept; not <see cref="DiagnosticsOptions.IsOff"/>.</param>
    public SlowRequestSampler(DiagnosticsOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _thresholdTicks = options.ThresholdMs is { } ms ? (long)Math.Ceiling(ms * TimeSpan.TicksPerMillisecond) : long.MaxValue;
        _slowest = Math.Clamp(options.SlowestPerSecond, 0, DiagnosticsOptions.MaxPerSecond);
        _bar = InitialBar;
    }

    /// <summary>Offers a request that ended: kept when it is over the bar.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Offer(long latencyTicks, in OperationOutcome outcome, int attempts)
    {
        if (latencyTicks >= _bar)
        {
            Keep(new SlowRequestCandidate(latencyTicks, outcome, attempts));
        }
    }

    /// <summary>The second's requests to keep, slowest first (null when none), and a new second begins.</summary>
    public SlowRequestCandidate[]? TakeSecond()
    {
        SlowRequestCandidate[]? taken = null;
        if (_count > 0)
        {
            // An early request may have been among the slowest when it came and been passed since: only those still among the
            // slowest N, or over the threshold, are kept.
            var kept = 0;
            for (var i = 0; i < _count; i++)
            {
                if (i < _slowest || _kept[i].LatencyTicks >= _thresholdTicks)
                {
                    kept++;
                }
            }

            taken = new SlowRequestCandidate[kept];
            for (int i = 0, j = 0; i < _count; i++)
            {
                if (i < _slowest || _kept[i].LatencyTicks >= _thresholdTicks)
                {
                    taken[j++] = _kept[i];
                }
            }
        }

        // The references go with the second: the SDK's objects are not kept alive by this one.
        Array.Clear(_kept, 0, _count);
        _count = 0;
        _bar = InitialBar;
        return taken is { Length: > 0 } ? taken : null;
    }

    // With no slowest-N the threshold alone admits; otherwise every request does until N are kept.
    private long InitialBar => _slowest > 0 ? 0 : _thresholdTicks;

    private void Keep(in SlowRequestCandidate candidate)
    {
        // Slowest first; a full list loses its fastest.
        var at = _count < _kept.Length ? _count : _kept.Length - 1;
        while (at > 0 && _kept[at - 1].LatencyTicks < candidate.LatencyTicks)
        {
            _kept[at] = _kept[at - 1];
            at--;
        }

        _kept[at] = candidate;
        _count = Math.Min(_count + 1, _kept.Length);

        // Kept from now on: at or over the threshold, or slower than the N-th slowest so far; once full, also slower than the
        // fastest kept, which it would replace.
        var bar = _thresholdTicks;
        if (_slowest > 0)
        {
            bar = Math.Min(bar, _count < _slowest ? 0 : _kept[_slowest - 1].LatencyTicks + 1);
        }

        if (_count == _kept.Length)
        {
            bar = Math.Max(bar, _kept[^1].LatencyTicks + 1);
        }

        _bar = bar;
    }
}
