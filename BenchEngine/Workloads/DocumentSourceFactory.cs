using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// The one place a <see cref="WorkloadOptions"/> becomes documents, so the dashboard, the headless
/// runner and the tests generate exactly the same stream for the same settings and seed.
/// </summary>
public static class DocumentSourceFactory
{
    /// <summary>The largest <see cref="WorkloadOptions.TargetSizeBytes"/>: Cosmos DB items are at most 2 MB.</summary>
    public const int MaxTargetSizeBytes = 2_000_000;

    private const string OriginField = "Origin";

    // Derives the partition-key generator's seed from the workload's, so the two draw different numbers.
    private const int PartitionKeySeedSalt = 0x5EED;

    /// <summary>Creates the source the options describe. The caller disposes it (a CSV source holds the file open).</summary>
    /// <param name="options">The workload; checked with <see cref="Validate"/> first.</param>
    /// <param name="timeProvider">The clock for time fields (tests pass a fixed one).</param>
    /// <exception cref="ArgumentException">The options are invalid; the message lists what
    /// <see cref="Validate"/> reports.</exception>
    public static IDocumentSource Create(WorkloadOptions options, TimeProvider timeProvider)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(timeProvider);
        var errors = Validate(options);
        if (errors.Count > 0)
        {
            throw new ArgumentException(
                "The workload settings are invalid. " + string.Join(" ", errors.Select(e => $"{e.Key}: {e.Value}")),
                nameof(options));
        }

        // Two generators from one seed: the documents stay the same whichever partition-key strategy draws.
        var fields = CreateFields(options, new Random(options.Seed), timeProvider);
        try
        {
            var partitionKey = options.PartitionKey ?? DefaultPartitionKey(options.Shape, fields.FieldNames);
            var selector = PartitionKeySelector.Create(partitionKey, fields.FieldNames, new Random(options.Seed ^ PartitionKeySeedSalt));
            return new DocumentSource(
                fields,
                selector,
                options.TargetSizeBytes,
                Describe(fields.Description, PartitionKeySelector.Describe(partitionKey), options.TargetSizeBytes),
                options.Shard);
        }
        catch
        {
            fields.Dispose();
            throw;
        }
    }

    /// <summary>The workload in one line, without opening any file, e.g.
    /// "Flight record (50 columns, ~1,056 B); partition key: field 'Origin'; padded to ~1,725 B".</summary>
    public static string Describe(WorkloadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var shape = options.Shape switch
        {
            DocumentShape.SmallDto => SmallDtoGenerator.Summary,
            DocumentShape.PerformanceData => PerformanceDataGenerator.Summary,
            DocumentShape.BulkRecord => BulkRecordGenerator.Summary,
            DocumentShape.Flight => FlightGenerator.Summary,
            DocumentShape.JsonTemplate => "JSON template",
            DocumentShape.CsvFile => $"CSV file '{Path.GetFileName(options.CsvPath)}'",
            _ => options.Shape.ToString(),
        };

        var partitionKey = (options.PartitionKey, options.Shape) switch
        {
            ({ } key, _) => PartitionKeySelector.Describe(key),
            (null, DocumentShape.CsvFile) => $"field '{OriginField}' if the file has it, else a new GUID per document",
            // Of the other shapes only flights default to a field, and a flight always has Origin.
            _ => PartitionKeySelector.Describe(DefaultPartitionKey(options.Shape, [OriginField])),
        };

        return Describe(shape, partitionKey, options.TargetSizeBytes);
    }

    /// <summary>
    /// What is wrong with the options, as (field path, message) pairs such as
    /// ("Workload.CsvPath", "The file cannot be used."), so a form can mark the field and a list can
    /// print "Workload.CsvPath: The file cannot be used.". Empty when the options are valid.
    /// </summary>
    /// <remarks>Reads a CSV file's header (a regular file only, at most 64 KB of it), to check a partition-key field
    /// against its columns. No message quotes the file.</remarks>
    /// <param name="options">The workload.</param>
    /// <param name="audience">Who reads the messages: a remote reader learns only that a file cannot be used.</param>
    /// <remarks>Documents are checked against a Cosmos DB item's limit; <see cref="Running.RunPlan.Validate"/> checks
    /// them against the plan's own target.</remarks>
    public static IReadOnlyList<KeyValuePair<string, string>> Validate(WorkloadOptions options, Running.ValidationAudience audience = Running.ValidationAudience.Remote)
    {
        ArgumentNullException.ThrowIfNull(options);
        return WorkloadValidator.Validate(options, audience, ItemSizeLimit.CosmosItem);
    }

    internal static IFieldSource CreateFields(WorkloadOptions options, Random random, TimeProvider timeProvider) => options.Shape switch
    {
        DocumentShape.SmallDto => new SmallDtoGenerator(random),
        DocumentShape.PerformanceData => new PerformanceDataGenerator(random, timeProvider),
        DocumentShape.BulkRecord => new BulkRecordGenerator(random, timeProvider),
        DocumentShape.Flight => new FlightGenerator(random),
        DocumentShape.JsonTemplate => JsonTemplateGenerator.Parse(options.Template ?? string.Empty, random, timeProvider),
        DocumentShape.CsvFile => CsvFileSource.Open(options.CsvPath ?? string.Empty),
        _ => throw new ArgumentOutOfRangeException(nameof(options), options.Shape, "Unknown document shape."),
    };

    /// <summary>
    /// The strategy a shape uses when <see cref="WorkloadOptions.PartitionKey"/> is empty: the seed
    /// experiments' keys, GUIDs for the small records, the sequence for the bulk import, Origin for flights.
    /// </summary>
    /// <remarks>For <see cref="DocumentShape.CsvFile"/> this answers <see cref="PartitionKeyStrategy.FieldValue"/>
    /// (Origin, as in a BTS file); a file without an Origin column falls back to <see cref="PartitionKeyStrategy.Guid"/>
    /// when the source is created, which only the file can tell.</remarks>
    public static PartitionKeyStrategy DefaultPartitionKeyStrategy(DocumentShape shape) => shape switch
    {
        DocumentShape.BulkRecord => PartitionKeyStrategy.Sequence,
        DocumentShape.Flight or DocumentShape.CsvFile => PartitionKeyStrategy.FieldValue,
        _ => PartitionKeyStrategy.Guid,
    };

    private static PartitionKeyOptions DefaultPartitionKey(DocumentShape shape, IReadOnlyList<string> fieldNames) =>
        DefaultPartitionKeyStrategy(shape) switch
        {
            PartitionKeyStrategy.FieldValue when fieldNames.Contains(OriginField, StringComparer.Ordinal) =>
                new() { Strategy = PartitionKeyStrategy.FieldValue, Field = OriginField },
            PartitionKeyStrategy.FieldValue => new() { Strategy = PartitionKeyStrategy.Guid },
            var strategy => new() { Strategy = strategy },
        };

    private static string Describe(string shape, string partitionKey, int? targetSizeBytes) =>
        targetSizeBytes is int target
            ? string.Create(CultureInfo.InvariantCulture, $"{shape}; partition key: {partitionKey}; padded to ~{target:N0} B")
            : $"{shape}; partition key: {partitionKey}";
}
