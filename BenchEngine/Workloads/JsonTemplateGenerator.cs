using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace BenchEngine.Workloads;

/// <summary>
/// Documents shaped by a user's JSON object. The template is parsed once into one producer per
/// property, so each document costs a few delegate calls rather than a parse and a text substitution.
/// </summary>
/// <remarks>
/// A string that is exactly one placeholder gets the placeholder's type (<c>{{seq}}</c> a number,
/// <c>{{now}}</c> a date); placeholders inside longer text are formatted into it. Other scalars are
/// literals; nested objects and arrays are copied verbatim (placeholders in them are not expanded).
/// An <c>id</c> property is dropped: the engine sets ids.
/// </remarks>
internal sealed partial class JsonTemplateGenerator : IFieldSource
{
    /// <summary>The longest <c>{{text:LENGTH}}</c>: a Cosmos DB item is at most 2 MB anyway.</summary>
    public const int MaxTextLength = 2_000_000;

    private const string Supported = "{{guid}}, {{seq}}, {{int:MIN:MAX}}, {{text:LENGTH}}, {{pick:a|b|c}} or {{now}}";

    // The longest text a placeholder inside a longer string adds: a sequence number (19 digits), a whole number
    // (11 with its sign), a time in the round-trip format (33, "2015-01-01T12:30:00.0000000+00:00").
    private const int SequenceChars = 19;
    private const int IntegerChars = 11;
    private const int TimeChars = 33;

    // A time written on its own: ISO 8601 with or without fractions of a second, in quotes.
    private const int ShortestTimeJson = 22;
    private const int LongestTimeJson = 35;

    private readonly string[] _names;
    private readonly Func<long, object?>[] _producers;

    private JsonTemplateGenerator(string[] names, Func<long, object?>[] producers, ValueBound[] bounds)
    {
        _names = names;
        _producers = producers;
        Bounds = bounds;
        Description = string.Create(CultureInfo.InvariantCulture, $"JSON template ({names.Length} fields)");
    }

    public string Description { get; }

    public IReadOnlyList<string> FieldNames => _names;

    /// <summary>How large each field's value can get, in <see cref="FieldNames"/> order.</summary>
    public IReadOnlyList<ValueBound> Bounds { get; }

    /// <exception cref="FormatException">The template is not a JSON object, or a placeholder is unknown or
    /// malformed. The message names the problem in words a user can act on.</exception>
    public static JsonTemplateGenerator Parse(string template, Random random, TimeProvider timeProvider)
    {
        ArgumentNullException.ThrowIfNull(template);
        ArgumentNullException.ThrowIfNull(random);
        ArgumentNullException.ThrowIfNull(timeProvider);

        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(template);
        }
        catch (JsonException e)
        {
            // A placeholder is a JSON string: written bare ({"x": {{int:1:5}}}) it breaks the document, and the reader's
            // message only names a position.
            throw new FormatException(BarePlaceholder().IsMatch(template)
                ? "Not valid JSON: a placeholder goes inside quotes (\"x\": \"{{int:1:5}}\"), and a string that is the placeholder alone gets its type (a number there)."
                : $"Not valid JSON ({e.Message})", e);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw new FormatException($"Must be a JSON object, not {Article(root.ValueKind)}.");
            }

            var names = new List<string>();
            var producers = new List<Func<long, object?>>();
            var bounds = new List<ValueBound>();
            foreach (var property in root.EnumerateObject())
            {
                if (property.NameEquals("id"))
                {
                    continue;
                }

                if (names.Contains(property.Name, StringComparer.Ordinal))
                {
                    throw new FormatException($"Property '{property.Name}' appears more than once.");
                }

                names.Add(property.Name);
                var (producer, bound) = CreateProducer(property.Name, property.Value, random, timeProvider);
                producers.Add(producer);
                bounds.Add(bound);
            }

            return new JsonTemplateGenerator([.. names], [.. producers], [.. bounds]);
        }
    }

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        for (var i = 0; i < _names.Length; i++)
        {
            fields[i] = new(_names[i], _producers[i](sequence));
        }

        return true;
    }

    public void Dispose()
    {
    }

    private static (Func<long, object?> Producer, ValueBound Bound) CreateProducer(string name, JsonElement value, Random random, TimeProvider timeProvider)
    {
        if (value.ValueKind == JsonValueKind.String)
        {
            return CreateStringProducer(name, value.GetString()!, random, timeProvider);
        }

        object? literal = value.ValueKind switch
        {
            JsonValueKind.Number when value.TryGetInt32(out var i) => i,
            JsonValueKind.Number when value.TryGetInt64(out var l) => l,
            JsonValueKind.Number => value.GetDouble(),
            JsonValueKind.True => true,
            JsonValueKind.False => false,
            JsonValueKind.Null => null,
            // Clone: the literal outlives the JsonDocument it was parsed from.
            _ => value.Clone(),
        };

        // A literal's size is known exactly; a Table stores a nested object or array as its text.
        var json = JsonBytes(value);
        var bound = literal switch
        {
            JsonElement => ValueBound.Text(value.GetRawText().Length, json),
            int or bool => ValueBound.Scalar(json, json, 4),
            null => ValueBound.Scalar(json, json, 0),
            _ => ValueBound.Scalar(json, json, 8),
        };
        return (_ => literal, bound);
    }

    private static (Func<long, object?> Producer, ValueBound Bound) CreateStringProducer(string name, string text, Random random, TimeProvider timeProvider)
    {
        var matches = Placeholder().Matches(text);
        if (matches.Count == 0)
        {
            return (_ => text, ValueBound.Text(text.Length, EncodedBytes(text) + 2));
        }

        if (matches.Count == 1 && matches[0].Length == text.Length)
        {
            var (produce, alone, _) = CreatePlaceholder(name, matches[0].Groups[1].Value, random, timeProvider);
            return (produce, alone);
        }

        var parts = new List<Func<long, object?>>();
        long chars = 0, jsonBytes = 2, spread = 0;
        var end = 0;
        foreach (Match match in matches)
        {
            if (match.Index > end)
            {
                var literal = text[end..match.Index];
                parts.Add(_ => literal);
                chars += literal.Length;
                jsonBytes += EncodedBytes(literal);
            }

            var (produce, _, inText) = CreatePlaceholder(name, match.Groups[1].Value, random, timeProvider);
            parts.Add(produce);
            chars += inText.MaxChars;
            jsonBytes += inText.MaxJsonBytes;
            spread += inText.Spread;
            end = match.Index + match.Length;
        }

        if (end < text.Length)
        {
            var tail = text[end..];
            parts.Add(_ => tail);
            chars += tail.Length;
            jsonBytes += EncodedBytes(tail);
        }

        var producers = parts.ToArray();
        return (sequence =>
        {
            var builder = new StringBuilder();
            foreach (var produce in producers)
            {
                builder.Append(Format(produce(sequence)));
            }

            return builder.ToString();
        }, ValueBound.Text(chars, jsonBytes, spread));
    }

    /// <returns>The producer; its value's bound when it is the whole string; and its bound as part of a longer
    /// string (characters, JSON bytes without quotes, and the spread of its escapes).</returns>
    private static (Func<long, object?> Producer, ValueBound Alone, ValueBound InText) CreatePlaceholder(string name, string content, Random random, TimeProvider timeProvider)
    {
        var colon = content.IndexOf(':', StringComparison.Ordinal);
        var kind = (colon < 0 ? content : content[..colon]).Trim();
        var argument = colon < 0 ? null : content[(colon + 1)..];

        switch (kind)
        {
            case "guid" when argument is null:
                var guids = UniqueIds.Draw();
                return (sequence => guids.Next(sequence), ValueBound.Text(36, 38), ValueBound.Text(36, 36));
            case "seq" when argument is null:
                return (sequence => sequence, ValueBound.Scalar(1, SequenceChars, 8), ValueBound.Text(SequenceChars, SequenceChars));
            case "now" when argument is null:
                // In a longer string the offset's '+' is escaped (6 bytes for 1 character).
                return (_ => timeProvider.GetUtcNow(), ValueBound.Scalar(ShortestTimeJson, LongestTimeJson, 8), ValueBound.Text(TimeChars, TimeChars + 5, 5));
            case "int" when TryParseRange(argument, out var min, out var max):
                var digits = Math.Max(Digits(min), Digits(max));
                return (_ => (int)random.NextInt64(min, (long)max + 1), ValueBound.Scalar(1, digits, 4), ValueBound.Text(IntegerChars, IntegerChars));
            case "int":
                throw Malformed(name, content, "expects {{int:MIN:MAX}} with whole numbers and MIN ≤ MAX");
            case "text" when int.TryParse(argument, NumberStyles.Integer, CultureInfo.InvariantCulture, out var length)
                && length is > 0 and <= MaxTextLength:
                return (_ => RandomText.Letters(random, length), ValueBound.Text(length, length + 2), ValueBound.Text(length, length));
            case "text":
                throw Malformed(name, content, "expects {{text:LENGTH}} with a length from 1 to 2,000,000");
            case "pick" when !string.IsNullOrEmpty(argument):
                var choices = argument.Split('|');
                var longest = choices.Max(c => c.Length);
                var escapes = choices.Select(c => EncodedBytes(c) - c.Length).ToList();
                var mostBytes = choices.Max(EncodedBytes);
                var escapeSpread = escapes.Max() - escapes.Min();
                return (_ => choices[random.Next(choices.Length)], ValueBound.Text(longest, mostBytes + 2, escapeSpread), ValueBound.Text(longest, mostBytes, escapeSpread));
            case "pick":
                throw Malformed(name, content, "expects {{pick:a|b|c}} with at least one choice");
            default:
                throw Malformed(name, content, "is not a known placeholder; use " + Supported);
        }
    }

    private static int Digits(int value) => value.ToString(CultureInfo.InvariantCulture).Length;

    /// <summary>Bytes of <paramref name="text"/> in a JSON string, escapes included, as the document writer escapes it.</summary>
    private static int EncodedBytes(string text) => JsonEncodedText.Encode(text).EncodedUtf8Bytes.Length;

    private static long JsonBytes(JsonElement value)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            value.WriteTo(writer);
        }

        return buffer.WrittenCount;
    }

    private static bool TryParseRange(string? argument, out int min, out int max)
    {
        min = max = 0;
        var bounds = argument?.Split(':');
        return bounds is [var low, var high]
            && int.TryParse(low, NumberStyles.Integer, CultureInfo.InvariantCulture, out min)
            && int.TryParse(high, NumberStyles.Integer, CultureInfo.InvariantCulture, out max)
            && min <= max;
    }

    private static FormatException Malformed(string name, string content, string problem) =>
        new($"Property '{name}': '{{{{{content}}}}}' {problem}.");

    private static string Format(object? value) => value switch
    {
        null => string.Empty,
        DateTimeOffset time => time.ToString("O", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? string.Empty,
    };

    private static string Article(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        _ => "null",
    };

    [GeneratedRegex(@"\{\{([^{}]*)\}\}", RegexOptions.CultureInvariant)]
    private static partial Regex Placeholder();

    // A placeholder where a value belongs, outside a string: after a colon, a bracket or a comma.
    [GeneratedRegex(@"[:\[,]\s*\{\{[^{}]*\}\}", RegexOptions.CultureInvariant)]
    private static partial Regex BarePlaceholder();
}
