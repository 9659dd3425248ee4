using System.Numerics;

namespace BenchEngine.Metrics;

/// <summary>
/// A log-linear histogram of latencies in microseconds with a relative error under 0.1 %
/// (three significant digits), fixed memory, and exact counts — the HdrHistogram layout.
/// </summary>
/// <remarks>
/// The HdrHistogram NuGet package is not in the registry this project builds from; this type keeps
/// its bucket layout so percentiles stay comparable with tools that use it: values below 2,048 µs
/// are exact, larger ones share a bucket with values within 1/1,024 of them. Not thread-safe:
/// <see cref="RunRecorder"/> serialises writes.
/// </remarks>
public sealed class LatencyHistogram
{
    private const int SubBucketBits = 11;
    private const int SubBucketCount = 1 << SubBucketBits;
    private const int SubBucketHalfCount = SubBucketCount / 2;

    /// <summary>The largest value kept apart (one hour); larger values are clamped to it.</summary>
    public const long HighestTrackableMicroseconds = 3_600_000_000;

    private static readonly int BucketArrayLength = IndexOf(HighestTrackableMicroseconds) + 1;

    private readonly long[] _counts = new long[BucketArrayLength];

    public long Count { get; private set; }

    public long MaxMicroseconds { get; private set; }

    public long MinMicroseconds { get; private set; } = long.MaxValue;

    /// <summary>Sum of all recorded values, for the mean.</summary>
    public double SumMicroseconds { get; private set; }

    public double MeanMicroseconds => Count == 0 ? 0 : SumMicroseconds / Count;

    public void Record(TimeSpan latency) => RecordMicroseconds((long)latency.TotalMicroseconds);

    public void RecordMicroseconds(long value)
    {
        value = Math.Clamp(value, 0, HighestTrackableMicroseconds);
        _counts[IndexOf(value)]++;
        Count++;
        SumMicroseconds += value;
        if (value > MaxMicroseconds)
        {
            MaxMicroseconds = value;
        }

        if (value < MinMicroseconds)
        {
            MinMicroseconds = value;
        }
    }

    /// <summary>Adds every value of <paramref name="other"/> to this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.Count == 0)
        {
            return;
        }

        for (var i = 0; i < _counts.Length; i++)
        {
            _counts[i] += other._counts[i];
        }

        Count += other.Count;
        SumMicroseconds += other.SumMicroseconds;
        MaxMicroseconds = Math.Max(MaxMicroseconds, other.MaxMicroseconds);
        MinMicroseconds = Math.Min(MinMicroseconds, other.MinMicroseconds);
    }

    public void Reset()
    {
        Array.Clear(_counts);
        Count = 0;
        SumMicroseconds = 0;
        MaxMicroseconds = 0;
        MinMicroseconds = long.MaxValue;
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0–100) by nearest rank: the smallest recorded value
    /// such that at least that share of all values is at or below it, reported as the highest value its
    /// bucket can hold (never below the true value), and never above the true maximum.
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (Count == 0)
        {
            return 0;
        }

        // The small tolerance keeps 99.9 % of 1,000 at rank 999 despite binary floating point.
        var rank = (long)Math.Ceiling((Math.Clamp(percentile, 0, 100) / 100.0 * Count) - 1e-9);
        rank = Math.Max(rank, 1);
        long seen = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                return Math.Min(HighestValueOfBucket(i), MaxMicroseconds);
            }
        }

        return MaxMicroseconds;
    }

    public double MillisecondsAtPercentile(double percentile) => ValueAtPercentile(percentile) / 1000.0;

    private static int IndexOf(long value)
    {
        if (value < SubBucketCount)
        {
            return (int)value;
        }

        // The top SubBucketBits bits of the value pick a sub-bucket in [1024, 2047]; the shift picks the bucket.
        var shift = 63 - BitOperations.LeadingZeroCount((ulong)value) - (SubBucketBits - 1);
        var subBucket = (int)(value >> shift);
        return (shift * SubBucketHalfCount) + subBucket;
    }

    private static long HighestValueOfBucket(int index)
    {
        if (index < SubBucketCount)
        {
            return index;
        }

        var shift = (index / SubBucketHalfCount) - 1;
        var subBucket = index - (shift * SubBucketHalfCount);
        return ((long)(subBucket + 1) << shift) - 1;
    }
}
