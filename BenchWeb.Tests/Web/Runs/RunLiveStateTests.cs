using BenchWeb.Hubs;
using BenchWeb.Runs;

namespace BenchWeb.Tests.Web.Runs;

public sealed class RunLiveStateTests
{
    [Fact]
    public void CurrentRate_ShortLastSecond_IsNotScaledUpToARate()
    {
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: 5_000);
        state.Add([Second(0, ok: 800, duration: 1), Second(1, ok: 810, duration: 1), Second(2, ok: 13, duration: 0.007)]);

        Assert.Equal(810, state.CurrentRate);
        Assert.Equal(1_623, state.TotalOk);
    }

    [Fact]
    public void Progress_CountsFailedBatchesAsDone()
    {
        var state = new RunLiveState(documentLimit: 1_000, durationSeconds: null, provisionedRequestUnits: null, batchSize: 100);
        state.Add([Second(0, ok: 300, duration: 1, errors: 2)]);

        Assert.Equal(500, state.DocumentsDone);
        Assert.Equal(0.5, state.Progress);
        Assert.Equal(TimeSpan.FromSeconds(1), state.EstimatedTimeLeft);
    }

    private static LiveSecond Second(int index, long ok, double duration, long errors = 0) => new()
    {
        Index = index,
        Elapsed = index + duration,
        Duration = duration,
        Ok = ok,
        OkRequests = ok,
        Errors = errors,
    };
}
