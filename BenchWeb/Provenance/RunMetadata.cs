using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using BenchEngine.Running;

namespace BenchWeb.Provenance;

/// <summary>
/// Where a run came from, as free key/value pairs: the commit, branch, build and pipeline run of the CI job that launched it
/// (<see cref="PipelineEnvironment"/> reads them from the job's environment), or whatever a caller adds (<c>--meta key=value</c>,
/// the API's <c>metadata</c> object). A team tells by them which build a regression belongs to, and filters the history by one.
/// </summary>
/// <remarks>
/// Bounded like the other texts a run keeps: at most <see cref="MaxPairs"/> pairs, keys of 1 to <see cref="MaxKeyLength"/>
/// characters and values of at most <see cref="MaxValueLength"/>, plain text only (<see cref="PlainText"/>), each key once.
/// Keys are compared exactly, case included, and hold no <c>=</c> (the text form is <c>key=value</c>); neither a key nor a
/// value begins or ends with a space (the text form drops them). A value may be empty. The pairs keep the
/// order they were given in. A set read from a request or a file is checked with <see cref="Validate"/> before it is kept.
/// </remarks>
[JsonConverter(typeof(RunMetadataJsonConverter))]
public sealed class RunMetadata
{
    public const int MaxPairs = 20;

    public const int MaxKeyLength = 50;

    public const int MaxValueLength = 200;

    public RunMetadata(IEnumerable<KeyValuePair<string, string>> pairs)
    {
        ArgumentNullException.ThrowIfNull(pairs);
        Pairs = [.. pairs];
    }

    /// <summary>No pairs.</summary>
    public static RunMetadata Empty { get; } = new([]);

    /// <summary>The pairs in the order they were given (duplicates included until <see cref="Validate"/> refuses them).</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Pairs { get; }

    public int Count => Pairs.Count;

    public bool IsEmpty => Pairs.Count == 0;

    /// <summary>The value of <paramref name="key"/> (compared exactly), or null when the run has none.</summary>
    public string? this[string key]
    {
        get
        {
            foreach (var pair in Pairs)
            {
                if (string.Equals(pair.Key, key, StringComparison.Ordinal))
                {
                    return pair.Value;
                }
            }

            return null;
        }
    }

    /// <summary>Every reason the pairs cannot be kept, each naming its field: <c>{field}.{key}</c> for a pair's problem
    /// (<c>Metadata.commit</c>), <paramref name="field"/> itself for the count and for a key that cannot be named.</summary>
    /// <param name="field">The field the pairs were given in, e.g. <c>Metadata</c> or <c>--meta</c>.</param>
    public IReadOnlyList<FieldError> Validate(string field = "Metadata")
    {
        var errors = new List<FieldError>();
        if (Pairs.Count > MaxPairs)
        {
            errors.Add(new(field, string.Create(CultureInfo.InvariantCulture, $"At most {MaxPairs} pairs; this has {Pairs.Count}.")));
        }

        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < Pairs.Count; i++)
        {
            var (key, value) = (Pairs[i].Key, Pairs[i].Value);
            var position = (i + 1).ToString(CultureInfo.InvariantCulture);

            // A key that cannot be shown as it is (empty, too long, unprintable) is named by its position, never quoted.
            if (PlainText.IsBlank(key))
            {
                errors.Add(new(field, $"Pair {position} has an empty or invisible key: every value needs a key."));
                continue;
            }

            if (key.Length > MaxKeyLength)
            {
                errors.Add(new(field, string.Create(CultureInfo.InvariantCulture, $"The key of pair {position} has {key.Length} characters; at most {MaxKeyLength}.")));
                continue;
            }

            if (PlainText.Check(key) is { } unprintable)
            {
                errors.Add(new(field, $"The key of pair {position}: {unprintable}"));
                continue;
            }

            var named = $"{field}.{key}";
            if (key.Contains('=', StringComparison.Ordinal))
            {
                errors.Add(new(named, "A key cannot hold '=': it separates a key from its value in key=value."));
            }
            else if (key.Trim().Length != key.Length)
            {
                errors.Add(new(named, "A key cannot begin or end with a space."));
            }

            if (!seen.Add(key))
            {
                errors.Add(new(named, "Given more than once: each key once."));
            }

            if (value is null)
            {
                errors.Add(new(named, "The value is missing: give it as text (it may be empty)."));
            }
            else if (value.Length > MaxValueLength)
            {
                errors.Add(new(named, string.Create(CultureInfo.InvariantCulture, $"At most {MaxValueLength} characters; this value has {value.Length}.")));
            }
            else if (PlainText.Check(value) is { } unprintableValue)
            {
                errors.Add(new(named, unprintableValue));
            }
            else if (value.Trim().Length != value.Length)
            {
                // The text form (key=value) drops spaces around a value: such a value could never be filtered on.
                errors.Add(new(named, "A value cannot begin or end with a space."));
            }
        }

        return errors;
    }

    /// <summary>These pairs with <paramref name="overrides"/> over them: a key both have takes the value of
    /// <paramref name="overrides"/> in its place; keys only <paramref name="overrides"/> has come after.</summary>
    public RunMetadata With(RunMetadata overrides)
    {
        ArgumentNullException.ThrowIfNull(overrides);
        var merged = Pairs.Select(p => overrides[p.Key] is { } value ? KeyValuePair.Create(p.Key, value) : p).ToList();
        merged.AddRange(overrides.Pairs.Where(p => this[p.Key] is null));
        return new RunMetadata(merged.DistinctBy(p => p.Key, StringComparer.Ordinal));
    }

    /// <summary>The pairs as stored in a run's row: one compact JSON object (<c>{"commit":"1a2b","branch":"main"}</c>), null
    /// for none. Every pair is written as <see cref="StoredPair"/> writes it, so a filter finds one with a substring.</summary>
    public string? ToStored() => IsEmpty ? null : "{" + string.Join(',', Pairs.Select(p => StoredPair(p.Key, p.Value))) + "}";

    /// <summary>The pairs of a stored object; none for null or a damaged column (a run page shows the run without them).</summary>
    public static RunMetadata FromStored(string? stored)
    {
        if (string.IsNullOrWhiteSpace(stored))
        {
            return Empty;
        }

        try
        {
            using var document = JsonDocument.Parse(stored);
            return document.RootElement.ValueKind != JsonValueKind.Object
                ? Empty
                : new RunMetadata(document.RootElement.EnumerateObject()
                    .Where(p => p.Value.ValueKind == JsonValueKind.String)
                    .Select(p => KeyValuePair.Create(p.Name, p.Value.GetString() ?? "")));
        }
        catch (JsonException)
        {
            return Empty;
        }
    }

    /// <summary>One pair as the stored object holds it: <c>"commit":"1a2b"</c>. Inside the object a value's quotes are
    /// escaped, so this text occurs there only where the key holds exactly this value: a filter is one substring test.</summary>
    public static string StoredPair(string key, string value) =>
        JsonSerializer.Serialize(key) + ":" + JsonSerializer.Serialize(value);

    /// <summary>Reads <c>key=value</c> (split at the first <c>=</c>; spaces around either part dropped), the form of
    /// <c>--meta</c> and of the runs list's filter. Null when it reads; otherwise why not.</summary>
    public static string? TryParsePair(string? text, out KeyValuePair<string, string> pair)
    {
        pair = default;
        var at = text?.IndexOf('=', StringComparison.Ordinal) ?? -1;
        if (text is null || at < 0)
        {
            return "Write key=value, e.g. commit=1a2b3c4.";
        }

        var key = text[..at].Trim();
        if (key.Length == 0)
        {
            return "The key before '=' is empty: write key=value, e.g. commit=1a2b3c4.";
        }

        pair = KeyValuePair.Create(key, text[(at + 1)..].Trim());
        return null;
    }

    /// <summary>The value as a link when it is an absolute http or https address (a pipeline run's page); null otherwise,
    /// so that no other scheme (<c>javascript:</c>, <c>data:</c>) ever becomes a link.</summary>
    public static Uri? LinkOf(string? value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttps || uri.Scheme == Uri.UriSchemeHttp) ? uri : null;

    /// <summary>"commit=1a2b; branch=main": the pairs in one line, for a CSV cell.</summary>
    public override string ToString() => string.Join("; ", Pairs.Select(p => $"{p.Key}={p.Value}"));
}
