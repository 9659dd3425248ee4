using BenchEngine.Targets;

namespace BenchEngine.Diagnostics;

/// <summary>A request that may be one of its second's slowest: its outcome (holding the SDK's object to describe it from, not
/// a text), its latency in ticks and its attempts. Nothing is formatted until its second has closed and it is still kept.</summary>
internal readonly record struct SlowRequestCandidate(long LatencyTicks, OperationOutcome Outcome, int Attempts)
{
    public SlowRequestFacts Facts => new(Outcome, TimeSpan.FromTicks(LatencyTicks), Attempts);
}
