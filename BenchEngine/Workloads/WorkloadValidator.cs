using CsvHelper;

namespace BenchEngine.Workloads;

/// <summary>
/// Checks <see cref="WorkloadOptions"/> before a run starts, so a bad template or a missing file is
/// reported on the form rather than as a failed run. Backs <see cref="DocumentSourceFactory.Validate"/>.
/// </summary>
internal static class WorkloadValidator
{
    private const string Template = "Workload.Template";
    private const string CsvPath = "Workload.CsvPath";
    private const string TargetSizeBytes = "Workload.TargetSizeBytes";
    private const string Shape = "Workload.Shape";
    private const string Strategy = "Workload.PartitionKey.Strategy";
    private const string Field = "Workload.PartitionKey.Field";
    private const string KeyCount = "Workload.PartitionKey.KeyCount";
    private const string HotKeyFraction = "Workload.PartitionKey.HotKeyFraction";

    public static List<KeyValuePair<string, string>> Validate(WorkloadOptions options)
    {
        var errors = new List<KeyValuePair<string, string>>();
        switch (options.TargetSizeBytes)
        {
            case <= 0:
                Add(errors, TargetSizeBytes, "Must be a positive number of bytes (or empty for no padding).");
                break;
            case > DocumentSourceFactory.MaxTargetSizeBytes:
                Add(errors, TargetSizeBytes, "Must be at most 2,000,000 bytes: Cosmos DB items are at most 2 MB.");
                break;
        }

        var fieldNames = FieldNames(options, errors);
        if (options.PartitionKey is { } partitionKey)
        {
            ValidatePartitionKey(partitionKey, options.Shape, fieldNames, errors);
        }

        return errors;
    }

    /// <summary>The shape's field names, or null when the shape itself is invalid (and reported).</summary>
    private static IReadOnlyList<string>? FieldNames(WorkloadOptions options, List<KeyValuePair<string, string>> errors)
    {
        switch (options.Shape)
        {
            case DocumentShape.JsonTemplate when string.IsNullOrWhiteSpace(options.Template):
                Add(errors, Template, "A JSON template is required for the JsonTemplate shape.");
                return null;
            case DocumentShape.CsvFile when string.IsNullOrWhiteSpace(options.CsvPath):
                Add(errors, CsvPath, "A CSV file path is required for the CsvFile shape.");
                return null;
            case DocumentShape.CsvFile when !File.Exists(options.CsvPath):
                Add(errors, CsvPath, $"File '{options.CsvPath}' does not exist.");
                return null;
            case not (DocumentShape.SmallDto or DocumentShape.PerformanceData or DocumentShape.BulkRecord
                or DocumentShape.Flight or DocumentShape.JsonTemplate or DocumentShape.CsvFile):
                Add(errors, Shape, $"'{options.Shape}' is not a known document shape.");
                return null;
        }

        try
        {
            using var fields = DocumentSourceFactory.CreateFields(options, new Random(0), TimeProvider.System);
            return fields.FieldNames;
        }
        catch (FormatException e)
        {
            Add(errors, Template, e.Message);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException or CsvHelperException)
        {
            Add(errors, CsvPath, $"File '{options.CsvPath}' cannot be read: {e.Message}");
        }

        return null;
    }

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
            case PartitionKeyStrategy.FieldValue when shape == DocumentShape.SmallDto && partitionKey.Field == DocumentSource.PartitionKeyField:
                Add(errors, Field, "The small DTO's PartitionKey field holds the chosen key itself; pick KeyNumber, SomeText or SomeCount.");
                break;
            case PartitionKeyStrategy.FieldValue when fieldNames is not null && !fieldNames.Contains(partitionKey.Field, StringComparer.Ordinal):
                Add(errors, Field, $"The {shape} documents have no field '{partitionKey.Field}' (they have {List(fieldNames)}).");
                break;
            case PartitionKeyStrategy.FieldValue:
                break;
            case PartitionKeyStrategy.FixedKeys when partitionKey.KeyCount < 1:
                Add(errors, KeyCount, "The FixedKeys strategy needs at least 1 key.");
                break;
            case PartitionKeyStrategy.FixedKeys:
                break;
            case PartitionKeyStrategy.HotKey:
                if (partitionKey.KeyCount < 2)
                {
                    Add(errors, KeyCount, "The HotKey strategy needs at least 2 keys: the hot one and one other.");
                }

                if (partitionKey.HotKeyFraction is not (> 0 and < 1))
                {
                    Add(errors, HotKeyFraction, "Must be between 0 and 1 (exclusive), e.g. 0.8 for 80 % of documents on the hot key.");
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
