namespace BenchEngine.Workloads;

/// <summary>How large one field's value can get, so a workload is checked against a target's item limit before it
/// runs rather than failing on every write.</summary>
/// <param name="MaxJsonBytes">Most bytes of the value in the JSON body, quotes and escapes included.</param>
/// <param name="MaxChars">Most characters, when the value is stored as text (0 otherwise): a Table property holds
/// at most 32,768.</param>
/// <param name="MaxEntityBytes">Most bytes the value counts for in a Table entity's size (text counts 2 bytes a
/// character, plus 4).</param>
/// <param name="Spread">How far the value's JSON bytes beyond its characters vary between documents. Padding is sized
/// on the first document, so the sum of these is how far a later document can overshoot the target size.</param>
internal readonly record struct ValueBound(long MaxJsonBytes, long MaxChars, long MaxEntityBytes, long Spread)
{
    /// <summary>Text of at most <paramref name="chars"/> characters taking at most <paramref name="jsonBytes"/> in JSON (quotes included).</summary>
    public static ValueBound Text(long chars, long jsonBytes, long spread = 0) => new(jsonBytes, chars, 4 + (2 * chars), spread);

    /// <summary>A number, date or flag: <paramref name="minJsonBytes"/> to <paramref name="maxJsonBytes"/> in JSON,
    /// <paramref name="entityBytes"/> in a Table entity.</summary>
    public static ValueBound Scalar(long minJsonBytes, long maxJsonBytes, long entityBytes) => new(maxJsonBytes, 0, entityBytes, maxJsonBytes - minJsonBytes);
}
