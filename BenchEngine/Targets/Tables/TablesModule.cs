namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Azure Table Storage; throttles with 503/500.</summary>
    public static TargetKind TableStorage { get; } = new("TableStorage");

    /// <summary>Azure Cosmos DB for Table; throttles with 429.</summary>
    public static TargetKind CosmosTable { get; } = new("CosmosTable");
}

public sealed partial record TargetOptions
{
    /// <summary>The table, for Table Storage and the Cosmos DB Table API.</summary>
    public TableOptions Tables { get; init; } = new();
}

/// <summary>Azure Table Storage and the Cosmos DB Table API: one table client, two services (the Cosmos DB one reports RU,
/// throttles with 429).</summary>
internal class TablesModule : TargetModule, IServiceEndpoints
{
    // Declared before the modules below: a static field is set in the order of the text, and each module lists these.
    private static readonly TargetField ConnectionStringSecret =
        TargetField.Of(t => t.Tables.ConnectionStringSecret, "Connection string", TargetInput.Secret) with { SecretPurpose = "tables-connection-string", SecretHolds = "the connection string" };

    private static readonly TargetField TableName =
        TargetField.Of(t => t.Tables.TableName, "Table", TargetInput.Text) with { Help = "3–63 letters and digits, starting with a letter." };

    private static readonly TargetField CreateIfMissing = TargetField.Of(t => t.Tables.CreateIfMissing, "Create the table if missing", TargetInput.Flag);

    private TablesModule(TargetKind kind, string displayName, IReadOnlyList<string> serviceHostPatterns)
    {
        Kind = kind;
        DisplayName = displayName;
        ServiceHostPatterns = serviceHostPatterns;
    }

    public static TablesModule TableStorage { get; } = new(TargetKind.TableStorage, "Table Storage",
        ["*.table.core.windows.net", "*.table.core.chinacloudapi.cn", "*.table.core.usgovcloudapi.net"]);

    public static TablesModule CosmosTable { get; } = new CosmosTableModule();

    public override TargetKind Kind { get; }

    public override string DisplayName { get; }

    public IReadOnlyList<string> ServiceHostPatterns { get; }

    public override TargetUnit Unit { get; } = new("entity", "entities");

    public override string Section => "Tables";

    public override int MaxBatchSize => Running.RunPlan.MaxTableBatch;

    public override bool BatchesSharePartitionKey => true;

    public override string BatchRefusal => $"An entity-group transaction holds at most {Running.RunPlan.MaxTableBatch} entities.";

    public override Workloads.ItemSizeLimit ItemLimit => Workloads.ItemSizeLimit.TableEntity;

    public override IReadOnlyList<TargetField> Fields { get; } = [ConnectionStringSecret, TableName, CreateIfMissing];

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new TableTarget(Kind, options.Tables, context);

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var tables = options.Tables;
        checks.CheckSecretName(tables.ConnectionStringSecret, ConnectionStringSecret, "the connection string", "TABLES_CONNECTION_STRING");
        checks.Check(!IsValidTableName(tables.TableName), TableName, "3–63 letters and digits, starting with a letter.");
    }

    public override string Describe(TargetOptions options) => $"{DisplayName}, table {options.Tables.TableName}";

    public Uri? EndpointOfSecret(TargetField field, string value) => StorageConnectionString.EndpointOf(value, StorageConnectionString.Tables);

    private static bool IsValidTableName(string? name) =>
        name is not null && name.Length is >= 3 and <= 63 && char.IsAsciiLetter(name[0]) && name.All(char.IsAsciiLetterOrDigit);

    /// <summary>The Cosmos DB Table API: its responses carry request units. Its plans name no throughput (the table's is set
    /// in the account), so the simulated twin of a table preset models <see cref="Presets.SeedPresets.TableRequestUnits"/>.</summary>
    private sealed class CosmosTableModule() : TablesModule(TargetKind.CosmosTable, "Cosmos DB Table API",
        ["*.table.cosmos.azure.com", "*.cosmos.azure.com", "*.table.cosmos.azure.cn", "*.table.cosmos.azure.us"]), IRequestUnitThroughput;
}
