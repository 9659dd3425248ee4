using BenchEngine.Metrics;

namespace BenchWeb.Tests.Engine.Metrics;

public class LatencyHistogramTests
{
    [Fact]
    public void ValueAtPercentile_IsExactNearestRank_WhenValuesAreBelow2048Microseconds()
    {
        var histogram = new LatencyHistogram();
        for (var v = 1; v <= 1000; v++)
        {
            histogram.RecordMicroseconds(v);
        }

        Assert.Equal(500, histogram.ValueAtPercentile(50));
        Assert.Equal(960, histogram.ValueAtPercentile(96));
        Assert.Equal(990, histogram.ValueAtPercentile(99));
        Assert.Equal(999, histogram.ValueAtPercentile(99.9));
        Assert.Equal(1000, histogram.ValueAtPercentile(100));
        Assert.Equal(500.5, histogram.MeanMicroseconds, 6);
    }

    [Theory]
    [InlineData(2_049)]
    [InlineData(15_321)]
    [InlineData(283_000)]
    [InlineData(29_999_999)]
    public void ValueAtPercentile_IsWithinOnePerMille_AtLargeValues(long value)
    {
        var histogram = new LatencyHistogram();
        histogram.RecordMicroseconds(value);
        histogram.RecordMicroseconds(value * 2);

        var p50 = histogram.ValueAtPercentile(50);

        Assert.InRange(p50, value, value + (value / 1000) + 1);
    }

    [Fact]
    public void Add_MergesCountsSoPercentilesAreOverAllValues()
    {
        var fast = new LatencyHistogram();
        var slow = new LatencyHistogram();
        for (var i = 0; i < 99; i++)
        {
            fast.RecordMicroseconds(1_000);
        }

        slow.RecordMicroseconds(500_000);

        var all = new LatencyHistogram();
        all.Add(fast);
        all.Add(slow);

        Assert.Equal(100, all.Count);
        Assert.Equal(1_000, all.ValueAtPercentile(99));
        Assert.InRange(all.ValueAtPercentile(100), 500_000, 500_500);
        Assert.Equal(500_000, all.MaxMicroseconds);
    }
}
