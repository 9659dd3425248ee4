using BenchEngine.Metrics;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Runs;

[UnitTest]
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
    public void Add_ASecondItHasAlready_CountsItOnce()
    {
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: null);
        state.Add([Second(0, ok: 800, duration: 1), Second(1, ok: 810, duration: 1)]);
        state.Add([Second(1, ok: 810, duration: 1), Second(2, ok: 700, duration: 1)]);

        Assert.Equal(2_310, state.TotalOk);
        Assert.Equal(2, state.LastIndex);
    }

    [Fact]
    public void CurrentRate_IsThatOfTheLastFullSecond_NeverOfAPartialOne()
    {
        // A last second of 0.6 s: 300 documents in it are not 500 inserts/s.
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: null);
        state.Add([Second(0, ok: 400, duration: 1), Second(1, ok: 300, duration: 0.6)]);

        Assert.Equal(400, state.CurrentRate);
    }

    [Fact]
    public void EstimatedCost_PricesAutoscaleAtOneAndAHalfTimes_OnThePeakSecond()
    {
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: 10_000) { ProvisionedAutoscale = true };
        state.Add([Second(0, ok: 400, duration: 1, requestUnits: 4_000), Second(1, ok: 400, duration: 1, requestUnits: 2_000)]);

        Assert.Equal(4_000 / 100.0 * 0.008 * 1.5 * 730, state.EstimatedCostPerMonth!.Value, 6);
    }

    [Fact]
    public void RequestUnitFiguresAndCost_AreNull_WhenTheTargetReportsNone()
    {
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: 10_000) { RequestUnitsReported = false };
        state.Add([Second(0, ok: 400, duration: 1)]);

        Assert.Null(state.RequestUnitsPerInsert);
        Assert.Null(state.EstimatedCost);
        Assert.Null(state.EstimatedCostPerMonth);
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

    [Fact]
    public void Totals_AreTheSecondsAddedUp_AsTheEngineAddsThem()
    {
        var seconds = new[]
        {
            new SecondSnapshot { Index = 0, Duration = TimeSpan.FromSeconds(1), Ok = 400, OkRequests = 4, Throttled = 1, Errors = 2, Issued = 8, Dropped = 3, GivenUp = 5, GivenUpRequests = 6, SentLate = 7, NotStarted = 9, Abandoned = 10, RequestUnits = 0.1 },
            new SecondSnapshot { Index = 1, Duration = TimeSpan.FromSeconds(1), Ok = 300, OkRequests = 3, Throttled = 11, Errors = 12, Issued = 13, Dropped = 14, GivenUp = 15, GivenUpRequests = 16, SentLate = 17, NotStarted = 18, Abandoned = 19, RequestUnits = 0.2 },
        };
        var state = new RunLiveState(documentLimit: null, durationSeconds: 10, provisionedRequestUnits: null);

        state.Add(seconds.Select(s => RunSecondEntity.From(1, s, DateTimeOffset.UnixEpoch)));

        Assert.Equal(SecondTotals.Sum(seconds), state.Totals);
        Assert.Equal(SecondTotals.Sum(seconds).ThrottledFraction, state.ThrottledFraction);
    }

    private static RunSecondEntity Second(int index, long ok, double duration, long errors = 0, double requestUnits = 0) => new()
    {
        Index = index,
        ElapsedSeconds = index + duration,
        DurationSeconds = duration,
        Ok = ok,
        OkRequests = ok,
        Errors = errors,
        RequestUnits = requestUnits,
    };
}
