using System.Globalization;

namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>Azure Cosmos DB for NoSQL (SQL API), through Microsoft.Azure.Cosmos.</summary>
    public static TargetKind CosmosSql { get; } = new("CosmosSql");
}

public sealed partial record TargetOptions
{
    /// <summary>The Cosmos DB for NoSQL account, container and client settings.</summary>
    public CosmosOptions Cosmos { get; init; } = new();
}

/// <summary>Azure Cosmos DB for NoSQL: one document per request (bulk mode groups them in the SDK), RU from every response.</summary>
internal sealed class CosmosSqlModule : TargetModule, IRequestUnitThroughput, IServiceEndpoints, IClientConnection
{
    private const int MaxResourceName = 255;

    public override TargetKind Kind => TargetKind.CosmosSql;

    public override string DisplayName => "Cosmos DB (SQL API)";

    public override string Section => "Cosmos";

    public IReadOnlyList<string> ServiceHostPatterns { get; } =
        ["*.documents.azure.com", "*.cosmos.azure.com", "*.documents.azure.cn", "*.documents.azure.us"];

    public override string BatchRefusal => "Cosmos DB for NoSQL writes one document per request here; turn on Bulk mode to let the SDK group writes.";

    private static readonly TargetField Endpoint =
        TargetField.Of(t => t.Cosmos.Endpoint, "Account endpoint", TargetInput.Text) with { Setting = "Endpoint", Help = "e.g. https://myaccount.documents.azure.com:443/" };

    private static readonly TargetField KeySecret =
        TargetField.Of(t => t.Cosmos.KeySecret, "Account key", TargetInput.Secret) with { SecretPurpose = "cosmos-key", SecretHolds = "the account key" };

    private static readonly TargetField Database = TargetField.Of(t => t.Cosmos.Database, "Database", TargetInput.Text);

    private static readonly TargetField Container = TargetField.Of(t => t.Cosmos.Container, "Container", TargetInput.Text);

    private static readonly TargetField PartitionKeyPath =
        TargetField.Of(t => t.Cosmos.PartitionKeyPath, "Partition key path", TargetInput.Text) with { Help = "The container's partition key, e.g. /PartitionKey." };

    private static readonly TargetField CreateIfMissing =
        TargetField.Of(t => t.Cosmos.CreateIfMissing, "Create the database and container if missing", TargetInput.Flag) with { Help = "With the indexing and throughput below. An existing container keeps its own." };

    private static readonly TargetField Indexing = TargetField.Choice<IndexingMode>(t => t.Cosmos.Indexing, "Indexing") with
    {
        Help = "Consistent indexes every property (≈ +0.2 RU per term). “Lazy” no longer exists for new containers: use None or excluded paths.",
        AppliesWhen = o => o.Cosmos.CreateIfMissing,
    };

    private static readonly TargetField ExcludedPaths = TargetField.Of(t => t.Cosmos.ExcludedPaths, "Excluded paths", TargetInput.Lines) with
    {
        Help = "One per line, e.g. /SomeText/?",
        AppliesWhen = o => o.Cosmos.CreateIfMissing && o.Cosmos.Indexing == IndexingMode.ExcludedPaths,
    };

    private static readonly TargetField Throughput = TargetField.Choice<ThroughputMode>(t => t.Cosmos.Throughput, "Throughput") with
    {
        Setting = "Throughput mode",
        Help = "Manual: fixed RU/s. Autoscale: scales between 10 % and the maximum.",
        AppliesWhen = o => o.Cosmos.CreateIfMissing,
    };

    // The service's own range for manual throughput; autoscale's higher minimum and the steps of 100 are rules of their own.
    private static readonly TargetField RequestUnits = TargetField.Of(t => t.Cosmos.RequestUnits, "RU/s (or autoscale maximum)", TargetInput.WholeNumber) with
    {
        Setting = "RU/s",
        Help = "At least 400, in steps of 100; 10,000 per physical partition.",
        WhenEmpty = "none (serverless or shared throughput)",
        AppliesWhen = o => o.Cosmos.CreateIfMissing,
        Min = 400,
        Max = 1_000_000,
    };

    private static readonly TargetField ConnectionMode = TargetField.Choice<CosmosConnectionMode>(t => t.Cosmos.ConnectionMode, "Connection mode") with
    {
        ClientSetting = true,
        Help = "Direct (TCP) is usually faster; Gateway (HTTPS) passes firewalls.",
    };

    private static readonly TargetField Bulk =
        TargetField.Of(t => t.Cosmos.Bulk, "Bulk mode", TargetInput.Flag) with { ClientSetting = true, Help = "The SDK groups concurrent writes into batches per partition." };

    private static readonly TargetField ConsistencyLevel = TargetField.Choice<CosmosConsistency>(t => t.Cosmos.ConsistencyLevel, "Consistency") with
    {
        Setting = "Consistency level",
        ClientSetting = true,
        Help = "Empty: the account's default.",
        WhenEmpty = "Account default",
    };

    private static readonly TargetField GatewayMaxConnections = TargetField.Of(t => t.Cosmos.GatewayMaxConnections, "Gateway max connections", TargetInput.WholeNumber) with
    {
        ClientSetting = true,
        Help = "Per endpoint, Gateway mode. App Service pre-allocates 128 SNAT ports per destination.",
        AppliesWhen = o => o.Cosmos.ConnectionMode == CosmosConnectionMode.Gateway,
        Min = 1,
        Max = 10_000,
    };

    private static readonly TargetField ContentResponseOnWrite =
        TargetField.Of(t => t.Cosmos.ContentResponseOnWrite, "Return the document on write", TargetInput.Flag) with { Setting = "Content response on write", ClientSetting = true, Help = "Off saves bandwidth and client CPU." };

    private static readonly TargetField LimitToEndpoint =
        TargetField.Of(t => t.Cosmos.LimitToEndpoint, "Talk to this endpoint only", TargetInput.Flag) with { ClientSetting = true, Help = "For emulators and proxies: no redirect to regional endpoints." };

    private static readonly TargetField AcceptAnyServerCertificate =
        TargetField.Of(t => t.Cosmos.AcceptAnyServerCertificate, "Accept any server certificate", TargetInput.Flag) with { ClientSetting = true, Help = "Only for a local emulator's self-signed certificate." };

    public override IReadOnlyList<TargetField> Fields { get; } =
    [
        Endpoint, KeySecret, Database, Container, PartitionKeyPath, CreateIfMissing, Indexing, ExcludedPaths, Throughput, RequestUnits,
        ConnectionMode, Bulk, ConsistencyLevel, GatewayMaxConnections, ContentResponseOnWrite, LimitToEndpoint, AcceptAnyServerCertificate,
    ];

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new CosmosTarget(options.Cosmos, context);

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var cosmos = options.Cosmos;
        checks.CheckChoice(cosmos.ConnectionMode, ConnectionMode);
        checks.CheckChoice(cosmos.Indexing, Indexing);
        checks.CheckChoice(cosmos.Throughput, Throughput);
        if (cosmos.ConsistencyLevel is { } consistency)
        {
            checks.CheckChoice(consistency, ConsistencyLevel);
        }

        checks.Check(string.IsNullOrWhiteSpace(cosmos.Endpoint), Endpoint, "Give the account endpoint, e.g. https://myaccount.documents.azure.com:443/.");
        var endpoint = EndpointOf(cosmos);
        checks.Check(cosmos.Endpoint is { Length: > 0 } && endpoint is null, Endpoint, "Not an absolute URL (of at most 2,048 characters).");
        if (endpoint is not null && EndpointPolicy.CheckAddress(endpoint) is { } refusal)
        {
            checks.Check(true, Endpoint, refusal);
        }

        checks.Check(cosmos.AcceptAnyServerCertificate && endpoint is not null && !EndpointPolicy.IsLoopback(endpoint.Host), AcceptAnyServerCertificate,
            "Only for an endpoint on this machine (a local emulator's self-signed certificate): a remote endpoint's certificate is always checked.");
        checks.CheckSecretName(cosmos.KeySecret, KeySecret, "the account key", "COSMOS_KEY");
        checks.Check(string.IsNullOrWhiteSpace(cosmos.Database), Database, "Give a database name.");
        checks.Check(cosmos.Database is { Length: > MaxResourceName }, Database, $"At most {MaxResourceName} characters.");
        checks.Check(HasRefusedCharacter(cosmos.Database), Database, ResourceIdRule("database", "benchweb"));
        checks.Check(string.IsNullOrWhiteSpace(cosmos.Container), Container, "Give a container name.");
        checks.Check(cosmos.Container is { Length: > MaxResourceName }, Container, $"At most {MaxResourceName} characters.");
        checks.Check(HasRefusedCharacter(cosmos.Container), Container, ResourceIdRule("container", "inserts"));
        var keyPath = cosmos.PartitionKeyPath;
        checks.Check(!keyPath.StartsWith('/') || keyPath.Length is < 2 or > MaxResourceName, PartitionKeyPath, "A path such as /PartitionKey.");
        checks.Check(keyPath.StartsWith('/') && keyPath.Length is >= 2 and <= MaxResourceName && keyPath[1..].Split('/').Any(string.IsNullOrWhiteSpace),
            PartitionKeyPath, "Every part of the path needs a property name: no // and no / at the end, e.g. /PartitionKey or /address/city.");
        checks.CheckBounds(GatewayMaxConnections, cosmos.GatewayMaxConnections, "Between 1 and 10,000.");
        checks.CheckBounds(RequestUnits, cosmos.RequestUnits, "At least 400 RU/s (the service's minimum for manual throughput).",
            "At most 1,000,000 RU/s (the service's own limit without a support request).");
        checks.Check(cosmos.Throughput == ThroughputMode.Autoscale && cosmos.RequestUnits is < 1000, RequestUnits, "Autoscale needs a maximum of at least 1,000 RU/s.");
        checks.Check(cosmos.RequestUnits is { } ru && ru % 100 != 0, RequestUnits, "RU/s come in steps of 100.");
        checks.Check(cosmos.Indexing == IndexingMode.ExcludedPaths && cosmos.ExcludedPaths.Count == 0, ExcludedPaths, "List at least one path to exclude, e.g. /SomeText/?.");
        checks.Check(cosmos.ExcludedPaths.Count > 100 || cosmos.ExcludedPaths.Any(p => p is null or { Length: > 1_000 }), ExcludedPaths, "At most 100 paths of at most 1,000 characters each.");
        if (cosmos.Indexing == IndexingMode.ExcludedPaths && cosmos.ExcludedPaths.Count <= 100)
        {
            var unrooted = cosmos.ExcludedPaths.Select((path, i) => (path, i)).Where(p => p.path is { Length: <= 1_000 } && !p.path.StartsWith('/')).Select(p => p.i + 1).ToList();
            checks.Check(unrooted.Count > 0, ExcludedPaths, string.Create(CultureInfo.InvariantCulture,
                $"{(unrooted.Count == 1 ? "Path" : "Paths")} {string.Join(", ", unrooted)} of the list {(unrooted.Count == 1 ? "does" : "do")} not start with /: an excluded path starts at the document's root, e.g. /payload/* or /SomeText/?."));
        }
    }

    // Whether a database's or container's id has a character the service refuses (/, \, #, ?) or ends with a space; an empty
    // or over-long id is refused by its own message.
    private static bool HasRefusedCharacter(string? id) =>
        id is { Length: > 0 and <= MaxResourceName } && !string.IsNullOrWhiteSpace(id) && (id.IndexOfAny(['/', '\\', '#', '?']) >= 0 || id.EndsWith(' '));

    private static string ResourceIdRule(string resource, string example) =>
        $"A {resource} name may not contain /, \\, # or ? and may not end with a space, e.g. {example}.";

    public override string Describe(TargetOptions options)
    {
        var cosmos = options.Cosmos;
        return string.Create(CultureInfo.InvariantCulture,
            $"{DisplayName}, {cosmos.ConnectionMode}{(cosmos.Bulk ? ", bulk" : "")}{(cosmos.RequestUnits is { } ru ? $", {ru:N0} RU/s" : "")}");
    }

    public string ConnectionText(TargetOptions options) => options.Cosmos.ConnectionMode.ToString();

    public bool? ClientGroupsWrites(TargetOptions options) => options.Cosmos.Bulk;

    public double? PlannedRequestUnits(TargetOptions options) => options.Cosmos.RequestUnits;

    public ProvisionedThroughput? ProvisionsOnCreate(TargetOptions options) =>
        options.Cosmos is { CreateIfMissing: true, RequestUnits: { } ru } ? new(RequestUnits.Path, ru) : null;

    public IndexingMode? PlannedIndexing(TargetOptions options) => options.Cosmos.Indexing;

    public TargetEndpoint? PlannedEndpoint(TargetOptions options) =>
        EndpointOf(options.Cosmos) is { } endpoint ? new(Endpoint.Path, endpoint) : null;

    private static Uri? EndpointOf(CosmosOptions cosmos) =>
        cosmos.Endpoint is { Length: > 0 and <= 2_048 } e && Uri.TryCreate(e, UriKind.Absolute, out var parsed) ? parsed : null;
}
