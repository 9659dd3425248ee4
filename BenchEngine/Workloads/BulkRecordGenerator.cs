using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// The ~320 B, 10-field record of the bulk-import seed: an order line, keyed by its sequence number,
/// so consecutive writes land on different logical partitions in a predictable order.
/// </summary>
internal sealed class BulkRecordGenerator(Random random, TimeProvider timeProvider) : IFieldSource
{
    public const string Summary = "Bulk record (10 fields, ~320 B)";

    private static readonly string[] Names =
    [
        "RecordNumber", "CustomerId", "OrderId", "ProductCode", "Description",
        "Quantity", "UnitPrice", "Currency", "Status", "CreatedAt",
    ];

    private static readonly string[] Currencies = ["USD", "EUR", "GBP"];
    private static readonly string[] Statuses = ["Pending", "Shipped", "Delivered", "Returned"];

    private readonly Random _random = random;
    private readonly TimeProvider _timeProvider = timeProvider;

    public string Description => Summary;

    public IReadOnlyList<string> FieldNames => Names;

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        var row = new FieldWriter(fields);
        row.Add("RecordNumber", sequence);
        row.Add("CustomerId", Code("CUST-", _random.Next(1_000_000), "000000"));
        row.Add("OrderId", Code("ORD-", _random.Next(100_000_000), "00000000"));
        row.Add("ProductCode", Code("SKU-", _random.Next(100_000), "00000"));
        row.Add("Description", RandomText.Letters(_random, 32));
        row.Add("Quantity", _random.Next(1, 51));
        row.Add("UnitPrice", Math.Round(1 + (_random.NextDouble() * 499), 2));
        row.Add("Currency", Currencies[_random.Next(Currencies.Length)]);
        row.Add("Status", Statuses[_random.Next(Statuses.Length)]);
        row.Add("CreatedAt", _timeProvider.GetUtcNow());
        return true;
    }

    public void Dispose()
    {
    }

    private static string Code(string prefix, int number, string format) =>
        prefix + number.ToString(format, CultureInfo.InvariantCulture);
}
