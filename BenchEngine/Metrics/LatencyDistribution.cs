using System.Buffers.Binary;
using HdrHistogram;
using HdrHistogram.Utilities;

namespace BenchEngine.Metrics;

/// <summary>
/// Latencies in microseconds, counted by an HdrHistogram <c>LongHistogram</c> with three significant
/// digits (relative error under 0.1 %) up to one hour.
/// </summary>
/// <remarks>
/// The package's histogram does the counting and the percentiles. This wrapper adds what its API lacks
/// for the figures the engine reports: out-of-range values are clamped instead of throwing; an empty
/// histogram reads 0 instead of throwing; the exact maximum and mean are kept, because
/// <c>GetMaxValue</c> and <c>GetMean</c> report bucket values (the maximum can read up to 0.1 % above the
/// slowest operation) and walk every bucket with allocations; and a percentile, which the package reports
/// as the highest value of its bucket, is never reported above that maximum. Recording allocates nothing.
/// Not thread-safe: <see cref="RunRecorder"/> serialises writes.
/// </remarks>
public sealed class LatencyDistribution
{
    /// <summary>The largest value kept apart (one hour); larger values are clamped to it.</summary>
    public const long HighestTrackableMicroseconds = 3_600_000_000;

    /// <summary>Values that differ in their first three digits are never counted together.</summary>
    public const int SignificantDigits = 3;

    private readonly LongHistogram _histogram = new(HighestTrackableMicroseconds, SignificantDigits);
    private long _sumMicroseconds;

    public long Count => _histogram.TotalCount;

    /// <summary>The slowest value recorded, exactly (after clamping); 0 when empty.</summary>
    public long MaxMicroseconds { get; private set; }

    public double MeanMicroseconds => Count == 0 ? 0 : (double)_sumMicroseconds / Count;

    public void Record(TimeSpan latency) => RecordMicroseconds(latency.Ticks / TimeSpan.TicksPerMicrosecond);

    public void RecordMicroseconds(long value)
    {
        value = Math.Clamp(value, 0, HighestTrackableMicroseconds);
        _histogram.RecordValue(value);
        _sumMicroseconds += value;
        if (value > MaxMicroseconds)
        {
            MaxMicroseconds = value;
        }
    }

    /// <summary>Adds every value of <paramref name="other"/> to this distribution.</summary>
    public void Add(LatencyDistribution other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.Count == 0)
        {
            return;
        }

        _histogram.Add(other._histogram);
        _sumMicroseconds += other._sumMicroseconds;
        MaxMicroseconds = Math.Max(MaxMicroseconds, other.MaxMicroseconds);
    }

    public void Reset()
    {
        _histogram.Reset();
        _sumMicroseconds = 0;
        MaxMicroseconds = 0;
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0–100) over all recorded values, as HdrHistogram computes
    /// it, capped at <see cref="MaxMicroseconds"/>; 0 when empty.
    /// </summary>
    public long ValueAtPercentile(double percentile) =>
        Count == 0 ? 0 : Math.Min(_histogram.GetValueAtPercentile(percentile), MaxMicroseconds);

    public double MillisecondsAtPercentile(double percentile) => ValueAtPercentile(percentile) / 1000.0;

    // The encoding: HdrHistogram's compressed V2 form as its own encoder writes it, then the exact sum and maximum (8 bytes
    // each, little-endian): any standard V2 decoder reads the histogram and ignores what follows it. Encodings written
    // before had the sum and maximum first (LegacyHeaderBytes); they still decode.
    private const int TrailerBytes = 16;
    private const int LegacyHeaderBytes = 16;

    // The compressed V2 cookie with its word-size bits masked, and the cookie and length that precede the compressed bytes.
    private const int CompressedCookieV2 = 0x1c849304;
    private const int CompressedPrefixBytes = 8;

    /// <summary>Every value recorded, in a few hundred bytes: HdrHistogram's compressed V2 encoding (readable by any
    /// HdrHistogram decoder), followed by the exact sum and maximum. Distributions measured on several machines are merged
    /// from it without losing a value (<see cref="Decode"/> then <see cref="Add"/>), so percentiles over all of them are
    /// exact rather than averaged.</summary>
    public byte[] Encode()
    {
        var buffer = ByteBuffer.Allocate(_histogram.GetNeededByteBufferCapacity());
        var length = _histogram.EncodeIntoCompressedByteBuffer(buffer);
        var encoded = new byte[length + TrailerBytes];
        buffer.Position = 0;
        for (var i = 0; i < length; i++)
        {
            encoded[i] = buffer.Get();
        }

        BinaryPrimitives.WriteInt64LittleEndian(encoded.AsSpan(length), _sumMicroseconds);
        BinaryPrimitives.WriteInt64LittleEndian(encoded.AsSpan(length + 8), MaxMicroseconds);
        return encoded;
    }

    /// <summary>The distribution <see cref="Encode"/> wrote (or an earlier version of it, with the sum and maximum first).</summary>
    /// <exception cref="InvalidDataException">The bytes are not such an encoding.</exception>
    public static LatencyDistribution Decode(ReadOnlySpan<byte> encoded)
    {
        if (encoded.Length <= TrailerBytes + CompressedPrefixBytes)
        {
            throw new InvalidDataException("Not an encoded latency distribution: too short.");
        }

        var histogramLength = StartsWithCompressedHistogram(encoded) is { } length && length + TrailerBytes == encoded.Length ? length : (int?)null;
        var figures = histogramLength is { } at ? encoded.Slice(at) : encoded;
        var histogram = histogramLength is { } end ? encoded[..end] : encoded.Slice(LegacyHeaderBytes);
        var distribution = new LatencyDistribution
        {
            _sumMicroseconds = BinaryPrimitives.ReadInt64LittleEndian(figures),
            MaxMicroseconds = BinaryPrimitives.ReadInt64LittleEndian(figures.Slice(8)),
        };
        try
        {
            distribution._histogram.Add(HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(histogram.ToArray()), HighestTrackableMicroseconds));
        }
        catch (Exception ex) when (ex is ArgumentException or IndexOutOfRangeException or InvalidOperationException or IOException)
        {
            throw new InvalidDataException("Not an encoded latency distribution.", ex);
        }

        return distribution;
    }

    /// <summary>The length of the compressed histogram <paramref name="encoded"/> starts with (its cookie and length, then the
    /// compressed bytes), or null when it does not start with one.</summary>
    private static int? StartsWithCompressedHistogram(ReadOnlySpan<byte> encoded)
    {
        var cookie = BinaryPrimitives.ReadInt32BigEndian(encoded);
        var length = BinaryPrimitives.ReadInt32BigEndian(encoded.Slice(4));
        return (cookie & ~0xf0) == CompressedCookieV2 && length > 0 && length <= encoded.Length - CompressedPrefixBytes ? CompressedPrefixBytes + length : null;
    }
}
