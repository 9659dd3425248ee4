using System.Buffers.Binary;
using BenchEngine.Metrics;
using BenchWeb.Tests.Support;
using HdrHistogram;
using HdrHistogram.Utilities;

namespace BenchWeb.Tests.Engine.Metrics;

/// <summary>Stored histograms are HdrHistogram's own compressed V2 encoding: any standard decoder reads them.</summary>
[UnitTest]
public class LatencyDistributionEncodingTests
{
    [Fact]
    public void Encode_IsReadByHdrHistogramsOwnDecoder_WithEveryValue()
    {
        var latencies = Recorded(out var values);

        var decoded = HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(latencies.Encode()), LatencyDistribution.HighestTrackableMicroseconds);

        var reference = new LongHistogram(LatencyDistribution.HighestTrackableMicroseconds, LatencyDistribution.SignificantDigits);
        foreach (var value in values)
        {
            reference.RecordValue(value);
        }

        Assert.Equal(values.Count, decoded.TotalCount);
        foreach (var percentile in new[] { 50, 90, 99, 99.9, 100 })
        {
            Assert.Equal(reference.GetValueAtPercentile(percentile), decoded.GetValueAtPercentile(percentile));
        }
    }

    [Fact]
    public void Decode_KeepsTheExactSumAndMaximum_ThatFollowTheHistogram()
    {
        var latencies = Recorded(out var values);

        var decoded = LatencyDistribution.Decode(latencies.Encode());

        Assert.Equal(values.Count, decoded.Count);
        Assert.Equal(values.Max(), decoded.MaxMicroseconds);
        Assert.Equal(values.Average(), decoded.MeanMicroseconds, 9);
        Assert.Equal(latencies.ValueAtPercentile(99), decoded.ValueAtPercentile(99));
    }

    [Fact]
    public void Decode_ReadsTheEncodingWrittenBefore_WhenTheSumAndMaximumComeFirst()
    {
        Recorded(out var values);
        var histogram = new LongHistogram(LatencyDistribution.HighestTrackableMicroseconds, LatencyDistribution.SignificantDigits);
        foreach (var value in values)
        {
            histogram.RecordValue(value);
        }

        var buffer = ByteBuffer.Allocate(histogram.GetNeededByteBufferCapacity());
        var length = histogram.EncodeIntoCompressedByteBuffer(buffer);
        var legacy = new byte[16 + length];
        BinaryPrimitives.WriteInt64LittleEndian(legacy, values.Sum());
        BinaryPrimitives.WriteInt64LittleEndian(legacy.AsSpan(8), values.Max());
        buffer.Position = 0;
        for (var i = 0; i < length; i++)
        {
            legacy[16 + i] = buffer.Get();
        }

        var decoded = LatencyDistribution.Decode(legacy);

        Assert.Equal(values.Count, decoded.Count);
        Assert.Equal(values.Max(), decoded.MaxMicroseconds);
        Assert.Equal(values.Average(), decoded.MeanMicroseconds, 9);
    }

    private static LatencyDistribution Recorded(out List<long> values)
    {
        var random = new Random(11);
        values = [.. Enumerable.Range(0, 20_000).Select(_ => (long)(800 * Math.Exp(random.NextDouble() * 6)))];
        var latencies = new LatencyDistribution();
        foreach (var value in values)
        {
            latencies.RecordMicroseconds(value);
        }

        return latencies;
    }
}
