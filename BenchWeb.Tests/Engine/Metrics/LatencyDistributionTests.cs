using BenchEngine.Metrics;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Metrics;

[UnitTest]
public class LatencyDistributionTests
{
    [Fact]
    public void ValueAtPercentile_IsExact_WhenValuesAreBelow2048Microseconds()
    {
        var latencies = new LatencyDistribution();
        for (var v = 1; v <= 1000; v++)
        {
            latencies.RecordMicroseconds(v);
        }

        Assert.Equal(500, latencies.ValueAtPercentile(50));
        Assert.Equal(960, latencies.ValueAtPercentile(96));
        Assert.Equal(990, latencies.ValueAtPercentile(99));
        Assert.Equal(999, latencies.ValueAtPercentile(99.9));
        Assert.Equal(1000, latencies.ValueAtPercentile(100));
        Assert.Equal(500.5, latencies.MeanMicroseconds, 6);
    }

    [Theory]
    [InlineData(2_049)]
    [InlineData(15_321)]
    [InlineData(283_000)]
    [InlineData(29_999_999)]
    [InlineData(1_799_999_999)]
    public void ValueAtPercentile_IsWithinOnePerMille_WhenValuesAreLarge(long value)
    {
        var latencies = new LatencyDistribution();
        latencies.RecordMicroseconds(value);
        latencies.RecordMicroseconds(value * 2);

        var p50 = latencies.ValueAtPercentile(50);

        Assert.True(p50 >= value, $"P50 {p50} below the value {value}");
        Assert.True((p50 - value) / (double)value < 0.001, $"P50 {p50} more than 0.1 % above {value}");
    }

    [Fact]
    public void ValueAtPercentile_IsNeverAboveTheMax_WhenTheMaxsBucketReachesHigher()
    {
        // 1,000,001 µs shares a bucket with values up to 1,000,447 µs, the value HdrHistogram reports for it.
        var latencies = new LatencyDistribution();
        for (var i = 0; i < 99; i++)
        {
            latencies.RecordMicroseconds(500);
        }

        latencies.RecordMicroseconds(1_000_001);

        Assert.Equal(1_000_001, latencies.MaxMicroseconds);
        Assert.Equal(1_000_001, latencies.ValueAtPercentile(100));
        Assert.Equal(1_000_001, latencies.ValueAtPercentile(99.9));
        Assert.Equal(500, latencies.ValueAtPercentile(99));
    }

    [Fact]
    public void Readings_AreZero_WhenNothingWasRecorded()
    {
        var latencies = new LatencyDistribution();

        Assert.Equal(0, latencies.Count);
        Assert.Equal(0, latencies.ValueAtPercentile(50));
        Assert.Equal(0, latencies.ValueAtPercentile(100));
        Assert.Equal(0, latencies.MillisecondsAtPercentile(99));
        Assert.Equal(0, latencies.MaxMicroseconds);
        Assert.Equal(0, latencies.MeanMicroseconds);
    }

    [Fact]
    public void Record_ClampsToTheTrackableRange_WhenAValueIsOutsideIt()
    {
        var latencies = new LatencyDistribution();
        latencies.Record(TimeSpan.FromHours(2));
        latencies.RecordMicroseconds(5_000_000_000);
        latencies.Record(TimeSpan.FromMilliseconds(-3));

        Assert.Equal(3, latencies.Count);
        Assert.Equal(LatencyDistribution.HighestTrackableMicroseconds, latencies.MaxMicroseconds);
        Assert.Equal(LatencyDistribution.HighestTrackableMicroseconds, latencies.ValueAtPercentile(100));
        Assert.Equal(0, latencies.ValueAtPercentile(0));
    }

    [Fact]
    public void Record_KeepsWholeMicroseconds()
    {
        var latencies = new LatencyDistribution();
        latencies.Record(TimeSpan.FromTicks(42_019));

        Assert.Equal(4_201, latencies.MaxMicroseconds);
        Assert.Equal(4.201, latencies.MillisecondsAtPercentile(50), 9);
    }

    [Fact]
    public void Add_MergesCounts_SoPercentilesAreOverAllValues()
    {
        var fast = new LatencyDistribution();
        var slow = new LatencyDistribution();
        for (var i = 0; i < 99; i++)
        {
            fast.RecordMicroseconds(1_000);
        }

        slow.RecordMicroseconds(500_000);

        var all = new LatencyDistribution();
        all.Add(fast);
        all.Add(slow);
        all.Add(new LatencyDistribution());

        Assert.Equal(100, all.Count);
        Assert.Equal(1_000, all.ValueAtPercentile(99));
        Assert.Equal(500_000, all.ValueAtPercentile(100));
        Assert.Equal(500_000, all.MaxMicroseconds);
        Assert.Equal(5_990, all.MeanMicroseconds, 9);
    }

    [Fact]
    public void Reset_ForgetsEveryValue()
    {
        var latencies = new LatencyDistribution();
        latencies.RecordMicroseconds(700_000);

        latencies.Reset();
        latencies.RecordMicroseconds(3_000);

        Assert.Equal(1, latencies.Count);
        Assert.Equal(3_000, latencies.MaxMicroseconds);
        Assert.Equal(3_000, latencies.ValueAtPercentile(100));
        Assert.Equal(3_000, latencies.MeanMicroseconds);
    }

    [Fact]
    public void Record_AllocatesNothing()
    {
        var latencies = new LatencyDistribution();
        latencies.Record(TimeSpan.FromMilliseconds(1));

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 100_000; i++)
        {
            latencies.Record(TimeSpan.FromMicroseconds(i * 37));
        }

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }
}
