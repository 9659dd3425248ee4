using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// Chooses each document's partition key. One type with a switch rather than one class per strategy:
/// the strategies are a few lines each and the choice is made per document.
/// </summary>
internal sealed class PartitionKeySelector
{
    public const string HotKey = "pk-hot";

    // Key strings are built once up to this count; beyond it a key is formatted per document rather
    // than holding millions of strings.
    private const int CachedKeyLimit = 4_096;

    private readonly PartitionKeyStrategy _strategy;
    private readonly Random _random;
    private readonly int _keyCount;
    private readonly string[] _cachedKeys;
    private readonly double _hotKeyFraction;
    private readonly int _fieldIndex;
    private readonly UniqueIds? _guids;

    private PartitionKeySelector(PartitionKeyOptions options, int fieldIndex, Random random)
    {
        _guids = options.Strategy == PartitionKeyStrategy.Guid ? UniqueIds.Draw() : null;
        _strategy = options.Strategy;
        _random = random;
        _keyCount = options.KeyCount;
        _hotKeyFraction = options.HotKeyFraction;
        _fieldIndex = fieldIndex;
        _cachedKeys = _strategy is PartitionKeyStrategy.FixedKeys or PartitionKeyStrategy.HotKey
            ? [.. Enumerable.Range(0, Math.Min(_keyCount, CachedKeyLimit)).Select(FormatKey)]
            : [];
    }

    /// <param name="options">The strategy and its settings.</param>
    /// <param name="fieldNames">The source's fields, to locate a <see cref="PartitionKeyStrategy.FieldValue"/> field once.</param>
    /// <param name="random">Draws for the hot-key strategy; apart from the document generator's so the
    /// same seed gives the same documents whatever the strategy.</param>
    /// <exception cref="ArgumentException">The options are invalid (see <see cref="DocumentSourceFactory.Validate"/>).</exception>
    public static PartitionKeySelector Create(PartitionKeyOptions options, IReadOnlyList<string> fieldNames, Random random)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(fieldNames);
        var fieldIndex = -1;
        switch (options.Strategy)
        {
            case PartitionKeyStrategy.Guid or PartitionKeyStrategy.Sequence:
                break;
            case PartitionKeyStrategy.FieldValue:
                fieldIndex = options.Field is null ? -1 : fieldNames.ToList().IndexOf(options.Field);
                if (fieldIndex < 0)
                {
                    throw new ArgumentException($"The documents have no field '{options.Field}' to take the partition key from.", nameof(options));
                }

                break;
            case PartitionKeyStrategy.FixedKeys:
                ArgumentOutOfRangeException.ThrowIfLessThan(options.KeyCount, 1, nameof(options));
                break;
            case PartitionKeyStrategy.HotKey:
                ArgumentOutOfRangeException.ThrowIfLessThan(options.KeyCount, 2, nameof(options));
                if (options.HotKeyFraction is not (> 0 and < 1))
                {
                    throw new ArgumentOutOfRangeException(nameof(options), options.HotKeyFraction, "The hot-key fraction must be between 0 and 1.");
                }

                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(options), options.Strategy, "Unknown partition-key strategy.");
        }

        return new PartitionKeySelector(options, fieldIndex, random);
    }

    /// <summary>In words, for run descriptions: "a new GUID per document", "field 'Origin'", …</summary>
    public static string Describe(PartitionKeyOptions options) => options.Strategy switch
    {
        PartitionKeyStrategy.Guid => "a new GUID per document",
        PartitionKeyStrategy.Sequence => "the sequence number",
        PartitionKeyStrategy.FieldValue => $"field '{options.Field}'",
        PartitionKeyStrategy.FixedKeys => string.Create(CultureInfo.InvariantCulture, $"{options.KeyCount:N0} fixed keys, round robin"),
        PartitionKeyStrategy.HotKey => string.Create(
            CultureInfo.InvariantCulture,
            $"hot key for {options.HotKeyFraction:P0} of documents, the rest over {options.KeyCount - 1:N0} keys"),
        _ => options.Strategy.ToString(),
    };

    /// <param name="sequence">The document's number in its source, from 0.</param>
    /// <param name="fields">The document's fields, for <see cref="PartitionKeyStrategy.FieldValue"/>.</param>
    public string Select(long sequence, ReadOnlySpan<KeyValuePair<string, object?>> fields) => _strategy switch
    {
        PartitionKeyStrategy.Sequence => sequence.ToString(CultureInfo.InvariantCulture),
        PartitionKeyStrategy.FieldValue => AsKey(fields[_fieldIndex].Value),
        PartitionKeyStrategy.FixedKeys => Key((int)(sequence % _keyCount)),
        PartitionKeyStrategy.HotKey => _random.NextDouble() < _hotKeyFraction ? HotKey : Key(_random.Next(1, _keyCount)),
        _ => _guids!.Next(sequence),
    };

    private string Key(int index) => index < _cachedKeys.Length ? _cachedKeys[index] : FormatKey(index);

    private static string FormatKey(int index) => "pk-" + index.ToString(CultureInfo.InvariantCulture);

    private static string AsKey(object? value) => value switch
    {
        null => string.Empty,
        string s => s,
        DateTimeOffset time => time.ToString("O", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? string.Empty,
    };
}
