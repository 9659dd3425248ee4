namespace BenchEngine.Workloads;

/// <summary>The largest item a target stores, and how it counts an item's size.</summary>
/// <param name="Item">The item in words, for messages ("a Cosmos DB item").</param>
/// <param name="MaxBytes">Most bytes of one item.</param>
/// <param name="CountsAsTableEntity">Size by the Table service's formula (text 2 bytes a character) rather than as JSON.</param>
/// <param name="MaxPropertyChars">Most characters of one text property, when the target limits it.</param>
public sealed record ItemSizeLimit(string Item, long MaxBytes, bool CountsAsTableEntity, int? MaxPropertyChars)
{
    /// <summary>Cosmos DB for NoSQL: 2 MB of JSON an item. The simulator and the no-op target use it too.</summary>
    public static ItemSizeLimit CosmosItem { get; } = new("a Cosmos DB item", 2 * 1024 * 1024, CountsAsTableEntity: false, MaxPropertyChars: null);

    /// <summary>Table Storage and the Cosmos DB Table API: 1 MiB an entity, 64 KiB (32,768 characters) a text property.</summary>
    public static ItemSizeLimit TableEntity { get; } = new("a Table entity", 1024 * 1024, CountsAsTableEntity: true, MaxPropertyChars: 32 * 1024);
}
