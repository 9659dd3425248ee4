using BenchEngine.Running;

namespace BenchEngine.Workloads;

/// <summary>
/// Refuses a workload whose documents can be larger than the target stores, before it runs: a template's
/// <c>{{text:N}}</c> can expand to megabytes, and padding is one text property, which Tables limit to 64 KiB.
/// Bounds are upper bounds (every placeholder at its longest); the limits are the services' own.
/// </summary>
internal static class DocumentSizeCheck
{
    // A built-in shape's documents are a few hundred bytes to ~2 KB (a flight record); this bounds all of them.
    private const long BuiltInDocumentBytes = 8 * 1024;

    // "id" and its GUID, braces, and a partition-key property Cosmos DB's writer adds when the document has none.
    private const long FramingJsonBytes = 2 + 45 + 64;

    // A Table entity's fixed part: 4 bytes, and PartitionKey and RowKey (the GUID id) at 2 bytes a character.
    private const long FramingEntityBytes = 4 + (2 * 36);

    // The padding property ("Padding": "…") around its filler, and how far the filler can miss when numbers vary.
    private const long PaddingJsonBytes = 16;
    private const long PaddingSlackBytes = 64;

    // Longest partition key that is not a template's field: a GUID (a sequence number and "pk-N" are shorter).
    private const long GeneratedKeyChars = 36;

    /// <param name="options">The workload (its template and field names already valid).</param>
    /// <param name="bounds">A template's value bounds, in field order; null for other shapes.</param>
    /// <param name="limit">The target's item limit.</param>
    /// <param name="errors">Where problems are added.</param>
    public static void Check(WorkloadOptions options, IReadOnlyList<ValueBound>? bounds, ItemSizeLimit limit, List<KeyValuePair<string, string>> errors)
    {
        var names = bounds is null ? [] : TemplateNames(options);
        long naturalJson = BuiltInDocumentBytes, naturalEntity = 2 * BuiltInDocumentBytes, longestText = 0, spread = 0;
        if (bounds is not null)
        {
            var (keyJson, keyChars) = Key(options, names, bounds);
            naturalJson = FramingJsonBytes + keyJson;
            naturalEntity = FramingEntityBytes + (2 * keyChars);
            for (var i = 0; i < bounds.Count; i++)
            {
                var name = names[i];
                naturalJson += System.Text.Json.JsonEncodedText.Encode(name).EncodedUtf8Bytes.Length + 4 + bounds[i].MaxJsonBytes;
                naturalEntity += 8 + (2 * name.Length) + bounds[i].MaxEntityBytes;
                longestText = Math.Max(longestText, bounds[i].MaxChars);
                spread += bounds[i].Spread;
            }

            if (!limit.CountsAsTableEntity && naturalJson > limit.MaxBytes)
            {
                Add(errors, PlanSettingsCatalog.Template.Path, $"A document from this template can reach {naturalJson:N0} bytes of JSON; {limit.Item} holds at most {limit.MaxBytes:N0}.");
            }
            else if (limit.MaxPropertyChars is { } most && longestText > most)
            {
                Add(errors, PlanSettingsCatalog.Template.Path, $"A value from this template can reach {longestText:N0} characters; a property of {limit.Item} holds at most {most:N0} (64 KiB).");
            }
            else if (limit.CountsAsTableEntity && naturalEntity > limit.MaxBytes)
            {
                Add(errors, PlanSettingsCatalog.Template.Path, $"A document from this template can reach {naturalEntity:N0} bytes as {limit.Item} (text counts 2 bytes a character); {limit.Item} holds at most {limit.MaxBytes:N0}.");
            }
        }

        if (options.TargetSizeBytes is not { } target)
        {
            return;
        }

        // The filler is one text property of at most the target size; the rest of the document is counted above.
        if (limit.MaxPropertyChars is { } longest && target > longest)
        {
            Add(errors, PlanSettingsCatalog.TargetSizeBytes.Path, $"The padding is one property, and a property of {limit.Item} holds at most {longest:N0} characters (64 KiB): pad to at most {longest:N0} bytes.");
            return;
        }

        var padded = limit.CountsAsTableEntity
            ? naturalEntity + 8 + 14 + 4 + (2L * target)
            : target + spread + PaddingJsonBytes + PaddingSlackBytes;
        if (padded > limit.MaxBytes)
        {
            Add(errors, PlanSettingsCatalog.TargetSizeBytes.Path, $"Padded documents can reach {padded:N0} bytes; {limit.Item} holds at most {limit.MaxBytes:N0}.");
        }
    }

    private static List<string> TemplateNames(WorkloadOptions options)
    {
        using var fields = DocumentSourceFactory.CreateFields(options, new Random(0), TimeProvider.System);
        return [.. fields.FieldNames];
    }

    /// <summary>The partition key's most JSON bytes (it may be written once more, as its own property) and characters.</summary>
    private static (long Json, long Chars) Key(WorkloadOptions options, List<string> names, IReadOnlyList<ValueBound> bounds) =>
        options.PartitionKey is { Strategy: PartitionKeyStrategy.FieldValue, Field: { } field } && names.IndexOf(field) is var index and >= 0
            ? (bounds[index].MaxJsonBytes, Math.Max(bounds[index].MaxChars, bounds[index].MaxJsonBytes))
            : (GeneratedKeyChars + 2, GeneratedKeyChars);

    private static void Add(List<KeyValuePair<string, string>> errors, string field, FormattableString message) =>
        errors.Add(new(field, FormattableString.Invariant(message)));
}
