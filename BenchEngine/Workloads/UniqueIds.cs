using System.Buffers.Binary;
using System.Security.Cryptography;

namespace BenchEngine.Workloads;

/// <summary>
/// Version-4 GUIDs for documents (ids, GUID partition keys, <c>{{guid}}</c> placeholders), one per sequence number, from a
/// 128-bit key drawn once from the operating system's generator: unique within the source for every sequence number
/// (its first 64 bits are a bijection of it), unpredictable across runs like <see cref="Guid.NewGuid"/>, and about 25
/// times cheaper on Linux, where <see cref="Guid.NewGuid"/> reads the kernel's generator for every GUID.
/// </summary>
/// <remarks>The key is not <see cref="WorkloadOptions.Seed"/>: that seed is the same (1) for every run by default, and two
/// runs into one container must not insert the same ids. Every source draws its own key (a run's, a shard's, an agent's),
/// so ids of two sources are as unlikely to meet as two <see cref="Guid.NewGuid"/>s; within one source the sequence
/// number makes each id, so none repeats.</remarks>
internal sealed class UniqueIds
{
    // SplitMix64's increment (2^64 / φ, odd) and finaliser constants.
    private const ulong Gamma = 0x9E3779B97F4A7C15;
    private const ulong Mix1 = 0xBF58476D1CE4E5B9;
    private const ulong Mix2 = 0x94D049BB133111EB;

    private readonly ulong _key;
    private readonly ulong _salt;

    /// <param name="key">The first half of the key: which bijection of the sequence numbers the first 64 bits are.</param>
    /// <param name="salt">The second half: mixed into the last 64 bits.</param>
    public UniqueIds(ulong key, ulong salt)
    {
        _key = key;
        _salt = salt;
    }

    /// <summary>A generator with a fresh key from <see cref="RandomNumberGenerator"/>.</summary>
    public static UniqueIds Draw()
    {
        Span<byte> key = stackalloc byte[16];
        RandomNumberGenerator.Fill(key);
        return new UniqueIds(BinaryPrimitives.ReadUInt64LittleEndian(key), BinaryPrimitives.ReadUInt64LittleEndian(key[8..]));
    }

    /// <summary>The GUID of document <paramref name="sequence"/>, as the "D" string (36 characters).</summary>
    public string Next(long sequence) => For(sequence).ToString();

    /// <summary>The GUID of document <paramref name="sequence"/>: version 4, RFC 9562 variant.</summary>
    public Guid For(long sequence)
    {
        // A bijection of the sequence number (an odd multiple plus the key, then SplitMix64's invertible finaliser): the 64
        // bits are spread over the GUID's 122 free bits around the version and variant ones, so no two numbers collide.
        var unique = Finalise(unchecked(_key + ((ulong)sequence * Gamma)));
        var rest = Finalise(unique ^ _salt);
        return new Guid(
            (int)(unique >> 32),
            (short)(unique >> 16),
            (short)(0x4000 | (int)((unique >> 4) & 0x0FFF)),
            (byte)(0x80 | (int)((unique & 0xF) << 2) | (int)(rest & 0x3)),
            (byte)(rest >> 8),
            (byte)(rest >> 16),
            (byte)(rest >> 24),
            (byte)(rest >> 32),
            (byte)(rest >> 40),
            (byte)(rest >> 48),
            (byte)(rest >> 56));
    }

    private static ulong Finalise(ulong z)
    {
        z = unchecked((z ^ (z >> 30)) * Mix1);
        z = unchecked((z ^ (z >> 27)) * Mix2);
        return z ^ (z >> 31);
    }
}
