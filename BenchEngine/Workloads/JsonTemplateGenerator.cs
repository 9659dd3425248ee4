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

    private readonly string[] _names;
    private readonly Func<long, object?>[] _producers;

    private JsonTemplateGenerator(string[] names, Func<long, object?>[] producers)
    {
        _names = names;
        _producers = producers;
        Description = string.Create(CultureInfo.InvariantCulture, $"JSON template ({names.Length} fields)");
    }

    public string Description { get; }

    public IReadOnlyList<string> FieldNames => _names;

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
            throw new FormatException($"Not valid JSON ({e.Message})", e);
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
                producers.Add(CreateProducer(property.Name, property.Value, random, timeProvider));
            }

            return new JsonTemplateGenerator([.. names], [.. producers]);
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

    private static Func<long, object?> CreateProducer(string name, JsonElement value, Random random, TimeProvider timeProvider)
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

        return _ => literal;
    }

    private static Func<long, object?> CreateStringProducer(string name, string text, Random random, TimeProvider timeProvider)
    {
        var matches = Placeholder().Matches(text);
        if (matches.Count == 0)
        {
            return _ => text;
        }

        if (matches.Count == 1 && matches[0].Length == text.Length)
        {
            return CreatePlaceholder(name, matches[0].Groups[1].Value, random, timeProvider);
        }

        var parts = new List<Func<long, object?>>();
        var end = 0;
        foreach (Match match in matches)
        {
            if (match.Index > end)
            {
                var literal = text[end..match.Index];
                parts.Add(_ => literal);
            }

            parts.Add(CreatePlaceholder(name, match.Groups[1].Value, random, timeProvider));
            end = match.Index + match.Length;
        }

        if (end < text.Length)
        {
            var tail = text[end..];
            parts.Add(_ => tail);
        }

        var producers = parts.ToArray();
        return sequence =>
        {
            var builder = new StringBuilder();
            foreach (var produce in producers)
            {
                builder.Append(Format(produce(sequence)));
            }

            return builder.ToString();
        };
    }

    private static Func<long, object?> CreatePlaceholder(string name, string content, Random random, TimeProvider timeProvider)
    {
        var colon = content.IndexOf(':', StringComparison.Ordinal);
        var kind = (colon < 0 ? content : content[..colon]).Trim();
        var argument = colon < 0 ? null : content[(colon + 1)..];

        switch (kind)
        {
            case "guid" when argument is null:
                return _ => Guid.NewGuid().ToString();
            case "seq" when argument is null:
                return sequence => sequence;
            case "now" when argument is null:
                return _ => timeProvider.GetUtcNow();
            case "int" when TryParseRange(argument, out var min, out var max):
                return _ => (int)random.NextInt64(min, (long)max + 1);
            case "int":
                throw Malformed(name, content, "expects {{int:MIN:MAX}} with whole numbers and MIN ≤ MAX");
            case "text" when int.TryParse(argument, NumberStyles.Integer, CultureInfo.InvariantCulture, out var length)
                && length is > 0 and <= MaxTextLength:
                return _ => RandomText.Letters(random, length);
            case "text":
                throw Malformed(name, content, "expects {{text:LENGTH}} with a length from 1 to 2,000,000");
            case "pick" when !string.IsNullOrEmpty(argument):
                var choices = argument.Split('|');
                return _ => choices[random.Next(choices.Length)];
            case "pick":
                throw Malformed(name, content, "expects {{pick:a|b|c}} with at least one choice");
            default:
                throw Malformed(name, content, "is not a known placeholder; use " + Supported);
        }
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
}
