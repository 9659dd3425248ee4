using BenchEngine.Running;
using CsvHelper;

namespace BenchEngine.Workloads;

/// <summary>
/// Checks <see cref="WorkloadOptions"/> before a run starts, so a bad template or a missing file is
/// reported on the form rather than as a failed run. Backs <see cref="DocumentSourceFactory.Validate"/>.
/// </summary>
/// <remarks>No message quotes a workload file: a CSV path may name any file on this machine, and what it holds is not
/// the business of whoever typed the path. For a <see cref="ValidationAudience.Remote"/> reader every problem with the
/// file is the same "cannot be used", so messages do not even tell whether the path exists.</remarks>
internal static class WorkloadValidator
{
    /// <summary>The longest template, in characters: a template describes a document, its values come from placeholders.</summary>
    public const int MaxTemplateChars = 256 * 1024;

    /// <summary>The longest CSV path.</summary>
    public const int MaxPathChars = 4_096;

    /// <summary>The most distinct partition keys: far more than any run's documents would spread over.</summary>
    public const int MaxKeyCount = 10_000_000;

    private const int MaxFieldNameChars = 255;

    private const string HotKeyNeedsTwo = "The HotKey strategy needs at least 2 keys: the hot one and one other.";

    private const string HotKeyShare = "Must be between 0 and 1 (exclusive), e.g. 0.8 for 80 % of documents on the hot key.";

    /// <summary>A file problem, as a remote reader sees it.</summary>
    private const string CannotBeUsed = "The file cannot be used.";

    // Where each error is reported: its setting's path.
    private static readonly string Template = PlanSettingsCatalog.Template.Path;
    private static readonly string CsvPath = PlanSettingsCatalog.CsvPath.Path;
    private static readonly string TargetSizeBytes = PlanSettingsCatalog.TargetSizeBytes.Path;
    private static readonly string Shape = PlanSettingsCatalog.Shape.Path;
    private static readonly string Strategy = PlanSettingsCatalog.PartitionKeyStrategy.Path;
    private static readonly string Field = PlanSettingsCatalog.PartitionKeyField.Path;
    private static readonly string KeyCount = PlanSettingsCatalog.PartitionKeyCount.Path;
    private static readonly string HotKeyFraction = PlanSettingsCatalog.HotKeyFraction.Path;

    public static List<KeyValuePair<string, string>> Validate(WorkloadOptions options, ValidationAudience audience, ItemSizeLimit limit)
    {
        var errors = new List<KeyValuePair<string, string>>();
        // A setting with bounds is held to those its descriptor declares (Bounds); the rules that read other settings follow.
        if (Bounds.Refusal(PlanSettingsCatalog.TargetSizeBytes, options.TargetSizeBytes,
                "Must be a positive number of bytes (or empty for no padding).", "Must be at most 2,000,000 bytes: Cosmos DB items are at most 2 MB.") is { } size)
        {
            Add(errors, TargetSizeBytes, size);
        }

        var fields = Inspect(options, audience, errors);
        if (options.PartitionKey is { } partitionKey)
        {
            ValidatePartitionKey(partitionKey, options.Shape, fields?.Names, errors);
        }

        if (!errors.Exists(e => e.Key == TargetSizeBytes || e.Key == Template))
        {
            DocumentSizeCheck.Check(options, fields?.Bounds, limit, errors);
        }

        return errors;
    }

    /// <summary>The shape's field names and, for a template, how large its values get; null when the shape itself is
    /// invalid (and reported).</summary>
    private static (IReadOnlyList<string> Names, IReadOnlyList<ValueBound>? Bounds)? Inspect(
        WorkloadOptions options, ValidationAudience audience, List<KeyValuePair<string, string>> errors)
    {
        switch (options.Shape)
        {
            case DocumentShape.JsonTemplate when string.IsNullOrWhiteSpace(options.Template):
                Add(errors, Template, "A JSON template is required for the JsonTemplate shape.");
                return null;
            case DocumentShape.JsonTemplate when options.Template.Length > MaxTemplateChars:
                Add(errors, Template, FormattableString.Invariant($"At most {MaxTemplateChars:N0} characters: put long values in placeholders such as {{{{text:LENGTH}}}}."));
                return null;
            case DocumentShape.CsvFile when string.IsNullOrWhiteSpace(options.CsvPath):
                Add(errors, CsvPath, "A CSV file path is required for the CsvFile shape.");
                return null;
            case DocumentShape.CsvFile when options.CsvPath.Length > MaxPathChars:
                Add(errors, CsvPath, FormattableString.Invariant($"At most {MaxPathChars:N0} characters."));
                return null;
            case not (DocumentShape.SmallDto or DocumentShape.PerformanceData or DocumentShape.BulkRecord
                or DocumentShape.Flight or DocumentShape.JsonTemplate or DocumentShape.CsvFile):
                Add(errors, Shape, $"'{options.Shape}' is not a known document shape.");
                return null;
        }

        try
        {
            using var fields = DocumentSourceFactory.CreateFields(options, new Random(0), TimeProvider.System);
            return (fields.FieldNames, (fields as JsonTemplateGenerator)?.Bounds);
        }
        catch (FormatException e)
        {
            Add(errors, Template, e.Message);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException or CsvHelperException)
        {
            Add(errors, CsvPath, audience == ValidationAudience.Remote ? CannotBeUsed : DescribeFileProblem(options.CsvPath!, e));
        }

        return null;
    }

    /// <summary>What is wrong with the file, for the person on this machine: the messages the CSV source writes say
    /// where and what, never what the file holds; anything else is named by its type only.</summary>
    private static string DescribeFileProblem(string path, Exception e) => e switch
    {
        FileNotFoundException or DirectoryNotFoundException => $"File '{path}' does not exist.",
        InvalidDataException or UnauthorizedAccessException => e.Message,
        CsvHelperException => $"File '{path}' cannot be read as CSV ({e.GetType().Name}).",
        _ => $"File '{path}' cannot be read ({e.GetType().Name}).",
    };

    private static void ValidatePartitionKey(
        PartitionKeyOptions partitionKey,
        DocumentShape shape,
        IReadOnlyList<string>? fieldNames,
        List<KeyValuePair<string, string>> errors)
    {
        switch (partitionKey.Strategy)
        {
            case PartitionKeyStrategy.Guid or PartitionKeyStrategy.Sequence:
                break;
            case PartitionKeyStrategy.FieldValue when string.IsNullOrWhiteSpace(partitionKey.Field):
                Add(errors, Field, "The FieldValue strategy needs the name of a field, e.g. Origin.");
                break;
            case PartitionKeyStrategy.FieldValue when partitionKey.Field.Length > MaxFieldNameChars:
                Add(errors, Field, $"At most {MaxFieldNameChars} characters.");
                break;
            case PartitionKeyStrategy.FieldValue when shape == DocumentShape.SmallDto && partitionKey.Field == DocumentSource.PartitionKeyField:
                Add(errors, Field, "The small DTO's PartitionKey field holds the chosen key itself; pick KeyNumber, SomeText or SomeCount.");
                break;
            case PartitionKeyStrategy.FieldValue when fieldNames is not null && !fieldNames.Contains(partitionKey.Field, StringComparer.Ordinal):
                // A file's columns are its content: they are never listed.
                Add(errors, Field, shape == DocumentShape.CsvFile
                    ? $"The CSV file's documents have no field '{partitionKey.Field}'."
                    : $"The {shape} documents have no field '{partitionKey.Field}' (they have {List(fieldNames)}).");
                break;
            case PartitionKeyStrategy.FieldValue:
                break;
            case PartitionKeyStrategy.FixedKeys or PartitionKeyStrategy.HotKey:
                var hot = partitionKey.Strategy == PartitionKeyStrategy.HotKey;
                var tooFew = hot ? HotKeyNeedsTwo : "The FixedKeys strategy needs at least 1 key.";
                if (Bounds.Refusal(PlanSettingsCatalog.PartitionKeyCount, partitionKey.KeyCount, tooFew, FormattableString.Invariant($"At most {MaxKeyCount:N0} keys.")) is { } count)
                {
                    Add(errors, KeyCount, count);
                }
                else if (hot && partitionKey.KeyCount < 2)
                {
                    // Above the setting's bound, a rule of the hot key's own.
                    Add(errors, KeyCount, HotKeyNeedsTwo);
                }

                if (hot && Bounds.Refusal(PlanSettingsCatalog.HotKeyFraction, partitionKey.HotKeyFraction, HotKeyShare, HotKeyShare) is { } share)
                {
                    Add(errors, HotKeyFraction, share);
                }

                break;
            default:
                Add(errors, Strategy, $"'{partitionKey.Strategy}' is not a known partition-key strategy.");
                break;
        }
    }

    private static void Add(List<KeyValuePair<string, string>> errors, string field, string message) =>
        errors.Add(new(field, message));

    private static string List(IReadOnlyList<string> names)
    {
        const int Shown = 8;
        var list = string.Join(", ", names.Take(Shown));
        return names.Count > Shown ? list + ", …" : list;
    }
}
