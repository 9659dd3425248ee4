namespace BenchEngine.Workloads;

/// <summary>
/// The ~150 B DTO of the first seed experiments. It carries its partition key as a field, so
/// <see cref="DocumentSource"/> writes the chosen key into <c>PartitionKey</c> (Cosmos DB rejects a
/// body whose key differs from the one the request names).
/// </summary>
internal sealed class SmallDtoGenerator(Random random) : IFieldSource
{
    public const string Summary = "Small DTO (4 fields, ~150 B)";

    private static readonly string[] Names = ["KeyNumber", "SomeText", "SomeCount", DocumentSource.PartitionKeyField];

    private readonly Random _random = random;

    public string Description => Summary;

    public IReadOnlyList<string> FieldNames => Names;

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        var row = new FieldWriter(fields);
        row.Add("KeyNumber", _random.Next(1_000_000));
        row.Add("SomeText", RandomText.Letters(_random, 12));
        row.Add("SomeCount", _random.Next(1_000));
        row.Add(DocumentSource.PartitionKeyField, string.Empty);
        return true;
    }

    public void Dispose()
    {
    }
}
