using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class SecondTotalsTests
{
    private static readonly SecondTotals Some = new(
        Ok: 1, OkRequests: 2, Throttled: 3, Errors: 4, Issued: 5, Dropped: 6, GivenUp: 7, GivenUpRequests: 8, SentLate: 9, NotStarted: 10, Abandoned: 11, RequestUnits: 12.5);

    private static readonly SecondTotals Others = new(
        Ok: 100, OkRequests: 200, Throttled: 300, Errors: 400, Issued: 500, Dropped: 600, GivenUp: 700, GivenUpRequests: 800, SentLate: 900, NotStarted: 1_000, Abandoned: 1_100, RequestUnits: 0.25);

    // Every field different, so a field added to the wrong one, or left out, shows.
    private static SecondSnapshot Second(int index, long n, double ru) => new()
    {
        Index = index,
        Elapsed = TimeSpan.FromSeconds(index + 1),
        Duration = TimeSpan.FromSeconds(1),
        Ok = 10 * n,
        OkRequests = n,
        Throttled = n + 1,
        Errors = n + 2,
        Issued = (3 * n) + 3,
        Dropped = n + 4,
        GivenUp = n + 5,
        GivenUpRequests = n + 6,
        SentLate = n + 7,
        NotStarted = n + 8,
        Abandoned = n + 9,
        RequestUnits = ru,
    };

    private static List<SecondSnapshot> Seconds() => [Second(0, 10, 0.1), Second(1, 20, 0.2), Second(2, 31, 0.3), Second(3, 0, 1e-17)];

    [Fact]
    public void Plus_AddsEveryField()
    {
        var expected = new SecondTotals(
            Ok: 101, OkRequests: 202, Throttled: 303, Errors: 404, Issued: 505, Dropped: 606, GivenUp: 707, GivenUpRequests: 808, SentLate: 909, NotStarted: 1_010, Abandoned: 1_111, RequestUnits: 12.75);

        Assert.Equal(expected, Some + Others);
        Assert.Equal(expected, Others + Some);
        Assert.Equal(202 + 303 + 404, (Some + Others).Responses);
    }

    [Fact]
    public void DroppedFraction_CountsTheRequestsNotStartedByTheStop_AsDueButNotSent()
    {
        // An open loop whose sender fell behind: 3,000 of 10,000 requests sent, none dropped at the cap, the backlog of 7,000
        // never started when the run stopped.
        var behind = SecondTotals.Zero with { Issued = 3_000, Dropped = 0, NotStarted = 7_000 };
        Assert.Equal(7_000, behind.Unsent);
        Assert.Equal(0.7, behind.DroppedFraction, 9);

        var both = SecondTotals.Zero with { Issued = 500, Dropped = 300, NotStarted = 200 };
        Assert.Equal(0.5, both.DroppedFraction, 9);
        Assert.Equal(both.Unsent, SummaryCalculator.Calculate([new SecondSnapshot { Index = 0, Elapsed = TimeSpan.FromSeconds(1), Duration = TimeSpan.FromSeconds(1), Issued = 500, Dropped = 300, NotStarted = 200 }], new LatencyDistribution()).TotalUnsent);
    }

    [Fact]
    public void Zero_IsTheIdentity()
    {
        Assert.Equal(Some, Some + SecondTotals.Zero);
        Assert.Equal(Some, SecondTotals.Zero + Some);
        Assert.Equal(SecondTotals.Zero, SecondTotals.Sum([]));
        Assert.Equal(0, SecondTotals.Zero.ThrottledFraction);
        Assert.Equal(0, SecondTotals.Zero.DroppedFraction);
        Assert.Equal(0, SecondTotals.Zero.Throughput(10));
        Assert.Null(SecondTotals.Zero.RequestUnitsPerInsert);
    }

    [Fact]
    public void Sum_OfSeconds_EqualsAddingThemOneByOne()
    {
        var seconds = Seconds();
        var oneByOne = SecondTotals.Zero;
        foreach (var second in seconds)
        {
            oneByOne += SecondTotals.Of(second);
        }

        Assert.Equal(oneByOne, SecondTotals.Sum(seconds));
        Assert.Equal(61 * 10, oneByOne.Ok);
        // In the seconds' order, as a running sum of doubles adds them.
        Assert.Equal(0.1 + 0.2 + 0.3 + 1e-17, oneByOne.RequestUnits);
    }

    [Fact]
    public void Sum_ThrowsOnOverflow_AsEnumerableSumDoes_WhilePlusWraps_AsLongDoes()
    {
        var huge = Second(0, 0, 0) with { Ok = long.MaxValue };

        Assert.Throws<OverflowException>(() => SecondTotals.Sum([huge, huge]));
        Assert.Equal(-2, (SecondTotals.Of(huge) + SecondTotals.Of(huge)).Ok);
    }

    [Fact]
    public void Summary_Totals_EqualTheSumOfItsSeconds()
    {
        var seconds = Seconds();
        var totals = SecondTotals.Sum(seconds);

        var summary = SummaryCalculator.Calculate(seconds, new LatencyDistribution());

        Assert.Equal(totals.Ok, summary.TotalOk);
        Assert.Equal(totals.OkRequests, summary.TotalOkRequests);
        Assert.Equal(totals.Throttled, summary.TotalThrottled);
        Assert.Equal(totals.Errors, summary.TotalErrors);
        Assert.Equal(totals.Issued, summary.TotalIssued);
        Assert.Equal(totals.Dropped, summary.TotalDropped);
        Assert.Equal(totals.GivenUp, summary.TotalGivenUp);
        Assert.Equal(totals.GivenUpRequests, summary.TotalGivenUpRequests);
        Assert.Equal(totals.SentLate, summary.TotalSentLate);
        Assert.Equal(totals.NotStarted, summary.TotalNotStarted);
        Assert.Equal(totals.Abandoned, summary.TotalAbandoned);
        Assert.Equal(totals.Issued + totals.Dropped + totals.NotStarted, summary.TotalOffered);
        Assert.Equal(totals.RequestUnits, summary.TotalRequestUnits);
        Assert.Equal(totals.ThrottledFraction, summary.ThrottledFraction);
        // The share of a schedule left unsent: an open loop's alone (a closed loop's not started are no schedule's).
        Assert.Equal(0, summary.DroppedFraction);
        Assert.Equal(totals.DroppedFraction, SummaryCalculator.Calculate(seconds, new LatencyDistribution(), new SummaryOptions { OfferedRequestsPerSecond = 100 }).DroppedFraction);
        Assert.Equal(totals.RequestUnitsPerInsert, summary.RequestUnitsPerInsert);
        Assert.Equal(totals.Throughput(summary.Elapsed.TotalSeconds), summary.AverageThroughput);
    }

    [Fact]
    public void Stages_Totals_EqualTheSumOfTheirSeconds()
    {
        var seconds = Seconds();

        var stages = SummaryCalculator.ForStages(seconds, [1, 3]);

        Assert.Collection(
            stages,
            first => AssertTotals(SecondTotals.Sum(seconds.Take(1)), first),
            second => AssertTotals(SecondTotals.Sum(seconds.Skip(1)), second));

        static void AssertTotals(SecondTotals expected, StageSummary stage)
        {
            Assert.Equal(
                expected with { GivenUp = 0 },
                new SecondTotals(stage.Ok, stage.OkRequests, stage.Throttled, stage.Errors, stage.Issued, stage.Dropped, 0, stage.GivenUpRequests, stage.SentLate, stage.NotStarted, stage.Abandoned, stage.TotalRequestUnits!.Value));
            Assert.Equal(expected.ThrottledFraction, stage.ThrottledFraction);
            Assert.Equal(expected.Throughput(stage.Duration.TotalSeconds), stage.Throughput);
        }
    }
}
