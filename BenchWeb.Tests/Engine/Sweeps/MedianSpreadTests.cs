using BenchEngine.Sweeps;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Sweeps;

[UnitTest]
public class MedianSpreadTests
{
    [Fact]
    public void Of_TooFewSeconds_IsNone()
    {
        Assert.Null(MedianSpread.Of(null));
        Assert.Null(MedianSpread.Of([1.0, 2.0]));
    }

    [Theory]
    // n, the rank j of the interval [x(j), x(n + 1 − j)]: the largest j with 1 − 2·P(B ≤ j − 1) ≥ 90 %, B ~ Bin(n, ½),
    // from the binomial table (n = 5: 1 − 2/32 = 93.8 %; n = 10: j = 2 gives 97.9 %, j = 3 only 89.1 %; n = 16: j = 5 gives
    // 92.3 %, j = 6 only 79.0 %); every second when none reaches 90 % (n = 3: 75 %). Above 60 the normal approximation:
    // n = 100: floor((100 − 1.645 × 10) / 2) = 41.
    [InlineData(3, 1)]
    [InlineData(5, 1)]
    [InlineData(10, 2)]
    [InlineData(16, 5)]
    [InlineData(100, 41)]
    public void Of_IsTheOrderStatisticsIntervalOfTheMedian(int n, int j)
    {
        // Shuffled values 1..n, so the j-th lowest is j.
        var values = Enumerable.Range(1, n).Select(v => (double)v).OrderBy(v => (v * 7919) % n).ToList();

        var spread = MedianSpread.Of(values)!.Value;

        Assert.Equal((j, n + 1 - j), ((int)spread.Low, (int)spread.High));
        Assert.True(spread.Contains(j) && spread.Contains(n + 1 - j) && !spread.Contains(j - 0.5) && !spread.Contains(n + 1.5 - j));
    }
}
