using BenchEngine.Diagnostics;
using BenchEngine.Targets;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Diagnostics;

[UnitTest]
public class SlowRequestSamplerTests
{
    private static readonly OperationOutcome Ok = OperationOutcome.Ok(201, 1, 5, 100);

    private static long Ms(double ms) => TimeSpan.FromMilliseconds(ms).Ticks;

    private static double[] Offer(SlowRequestSampler sampler, params double[] latencies)
    {
        foreach (var ms in latencies)
        {
            sampler.Offer(Ms(ms), Ok, 1);
        }

        return sampler.TakeSecond()?.Select(c => c.Facts.Latency.TotalMilliseconds).ToArray() ?? [];
    }

    [Fact]
    public void TakeSecond_KeepsTheSlowestN_WhenNoThreshold()
    {
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { SlowestPerSecond = 2 });

        Assert.Equal([40.0, 30.0], Offer(sampler, 5, 30, 1, 20, 40, 3));
    }

    [Fact]
    public void TakeSecond_KeepsEveryRequestAtOrOverTheThreshold_AndNothingElse_WhenSlowestIsOff()
    {
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { ThresholdMs = 150, SlowestPerSecond = 0 });

        Assert.Equal([210.0, 200.0, 150.0], Offer(sampler, 3, 200, 149.9, 150, 4, 210));
    }

    [Fact]
    public void TakeSecond_KeepsTheThresholdsAndTheSlowestTogether()
    {
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { ThresholdMs = 100, SlowestPerSecond = 1 });

        Assert.Equal([300.0, 120.0], Offer(sampler, 3, 120, 9, 300, 2));
        Assert.Equal([9.0], Offer(sampler, 3, 9, 2));
    }

    [Fact]
    public void TakeSecond_KeepsAtMostTenASecond_TheSlowest_WhenEveryRequestIsOverTheThreshold()
    {
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { ThresholdMs = 0 });

        var kept = Offer(sampler, [.. Enumerable.Range(1, 1_000).Select(i => (double)i)]);

        Assert.Equal(Enumerable.Range(991, 10).Reverse().Select(i => (double)i), kept);
    }

    [Fact]
    public void TakeSecond_StartsANewSecond_AndReturnsNullForASecondWithoutCandidates()
    {
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { ThresholdMs = 100, SlowestPerSecond = 0 });
        Assert.Equal([500.0], Offer(sampler, 500));

        sampler.Offer(Ms(5), Ok, 1);

        Assert.Null(sampler.TakeSecond());
    }

    [Fact]
    public void Offer_OfARequestBelowTheBar_AllocatesNothing()
    {
        // The hot path's promise: a request that cannot be kept costs a comparison, no object and no text.
        var sampler = new SlowRequestSampler(new DiagnosticsOptions { ThresholdMs = 1_000, SlowestPerSecond = 1 });
        sampler.Offer(Ms(900), Ok, 1);
        var fast = Ms(1);
        sampler.Offer(fast, Ok, 1);

        // Once before measuring: the JIT's own work on this thread (a loop compiled anew while it runs) is not the sampler's.
        OfferMany(sampler, fast);
        var before = GC.GetAllocatedBytesForCurrentThread();
        OfferMany(sampler, fast);

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal([900.0], sampler.TakeSecond()!.Select(c => c.Facts.Latency.TotalMilliseconds));
    }

    private static void OfferMany(SlowRequestSampler sampler, long latencyTicks)
    {
        for (var i = 0; i < 100_000; i++)
        {
            sampler.Offer(latencyTicks, Ok, 1);
        }
    }

    [Fact]
    public void Candidate_KeepsTheOutcomesReferenceAndAttempts()
    {
        var response = new object();
        var sampler = new SlowRequestSampler(DiagnosticsOptions.Default);

        sampler.Offer(Ms(80), Ok with { Diagnostics = response }, 3);
        var candidate = Assert.Single(sampler.TakeSecond()!);

        Assert.Same(response, candidate.Outcome.Diagnostics);
        Assert.Equal(3, candidate.Attempts);
    }
}
