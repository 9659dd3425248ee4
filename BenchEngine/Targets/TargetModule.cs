using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// Everything the rest of the application knows about one kind of target, declared in the target's own folder: its name
/// and units, whether it reports request units or takes batches, how to validate and describe its settings, the fields its
/// profile-editor section shows, where it connects, and how to open it. Pages, validation, comparisons and the run
/// history ask the kind's module (<see cref="TargetKind.Module"/>); none of them switches on a kind.
/// </summary>
/// <remarks>A new target is a folder with its options (a part of <see cref="TargetOptions"/>), its
/// <see cref="IInsertTarget"/>, its module, and one line in <see cref="TargetRegistry"/>.</remarks>
public abstract class TargetModule
{
    /// <summary>The kind's stable name, stored in plans and runs.</summary>
    public abstract TargetKind Kind { get; }

    /// <summary>What readers call it: "Cosmos DB (SQL API)".</summary>
    public abstract string DisplayName { get; }

    /// <summary>Said after the name among the profile form's choices, e.g. "model, no account"; null for nothing.</summary>
    public virtual string? ChoiceNote => null;

    /// <summary>What it stores, in words: documents, entities, blobs, messages, keys.</summary>
    public virtual TargetUnit Unit => TargetUnit.Documents;

    /// <summary>The plan's settings section this kind reads (<c>Cosmos</c> for <c>Target.Cosmos.*</c>); null when it reads none.</summary>
    public virtual string? Section => null;

    /// <summary>Whether responses carry a request-unit charge. False: RU figures are "n/a", never 0.</summary>
    public virtual bool ReportsRequestUnits => false;

    /// <summary>A model or a client-only target rather than a real service (the UI labels it).</summary>
    public virtual bool IsModel => false;

    /// <summary>The most documents one request may carry (<c>Load.BatchSize</c>); 1 when the target writes one per request.</summary>
    public virtual int MaxBatchSize => 1;

    /// <summary>Whether a batch must hold documents that share a partition key (an entity-group transaction).</summary>
    public virtual bool BatchesSharePartitionKey => false;

    /// <summary>Why a batch size above <see cref="MaxBatchSize"/> is refused, in words that say what to do instead.</summary>
    public virtual string BatchRefusal => MaxBatchSize == 1
        ? $"{DisplayName} writes one {Unit.Singular} per request: set the batch size to 1."
        : $"{DisplayName} takes at most {MaxBatchSize:N0} {Unit.Plural} per request.";

    /// <summary>The largest item it stores, and how an item's size is counted.</summary>
    public virtual ItemSizeLimit ItemLimit => ItemSizeLimit.CosmosItem;

    /// <summary>The fields of its section of the profile editor, in order; also the labels of its settings on the run page and
    /// in comparisons.</summary>
    public virtual IReadOnlyList<TargetField> Fields => [];

    /// <summary>The hosts of the service in Azure's clouds, as allow-list patterns (<c>*.documents.azure.com</c>): what an
    /// installation allows until its administrator says otherwise.</summary>
    public virtual IReadOnlyList<string> ServiceHostPatterns => [];

    /// <summary>Ready plans for this kind (rows of the published comparison tables), offered with the seed presets.</summary>
    public virtual IReadOnlyList<Presets.Preset> Presets => [];

    /// <summary>Opens the target for one run.</summary>
    public abstract IInsertTarget Create(TargetOptions options, TargetContext context);

    /// <summary>Checks its own settings, reporting each problem by field path (<c>Target.Cosmos.Endpoint</c>).</summary>
    public virtual void Validate(TargetOptions options, TargetChecks checks)
    {
    }

    /// <summary>A short description of its settings for lists and the audit log, e.g. "Cosmos DB (SQL API), Direct, 10,000 RU/s".</summary>
    public virtual string Describe(TargetOptions options) => DisplayName;

    /// <summary>Whether the setting at a flattened path of its own section (<c>target.cosmos.gatewayMaxConnections</c>) is read
    /// when <paramref name="options"/> run. By default, what its field's <see cref="TargetField.AppliesWhen"/> says.</summary>
    public virtual bool Applies(string path, TargetOptions options)
    {
        ArgumentNullException.ThrowIfNull(path);
        var field = FieldAt(path);
        return field?.AppliesWhen is not { } applies || applies(options);
    }

    /// <summary>Its field at a flattened path (<c>target.cosmos.bulk</c>) or a field path (<c>Target.Cosmos.Bulk</c>), ignoring case.</summary>
    public TargetField? FieldAt(string path) =>
        Fields.FirstOrDefault(f => string.Equals(f.Path, path, StringComparison.OrdinalIgnoreCase));

    /// <summary>How the client connects, for the results table's connection column ("Direct", "Gateway", "TLS"); null: not said.</summary>
    public virtual string? ConnectionText(TargetOptions options) => null;

    /// <summary>Whether the client groups concurrent writes itself (Cosmos DB's bulk mode), for the results table; null: no such mode.</summary>
    public virtual bool? ClientGroupsWrites(TargetOptions options) => null;

    /// <summary>The throughput a run would buy: what it provisions on a real service when it creates its container (the
    /// installation's limit applies to it), with the field that sets it; null when it provisions nothing (a model, an
    /// existing container).</summary>
    public virtual ProvisionedThroughput? ProvisionsOnCreate(TargetOptions options) => null;

    /// <summary>The throughput the plan provisions, when it says (for comparisons and the preset's simulated twin).</summary>
    public virtual double? PlannedRequestUnits(TargetOptions options) => null;

    /// <summary>How the plan indexes a container it creates, when it says (the preset's simulated twin uses it).</summary>
    public virtual IndexingMode? PlannedIndexing(TargetOptions options) => null;

    /// <summary>The endpoint the plan names in its own settings (not in a secret), with the field that names it; null when none.</summary>
    public virtual TargetEndpoint? PlannedEndpoint(TargetOptions options) => null;

    /// <summary>Where a secret's value points (a connection string's endpoint: scheme, host and port), read without keeping any
    /// of it; null when it names none. The endpoint allow-list and the audit log use it.</summary>
    /// <param name="field">The secret's field.</param>
    /// <param name="value">The secret's value.</param>
    public virtual Uri? EndpointOfSecret(TargetField field, string value) => null;

    /// <summary>The target's settings for shard <paramref name="index"/> of a run spread over <paramref name="count"/>
    /// agents. A real service is shared as it is (the default); a model gives each agent its share of what it models.</summary>
    public virtual TargetOptions ForShard(TargetOptions options, int index, int count) => options;
}

/// <summary>Request units per second a run provisions, and the field that sets them.</summary>
public sealed record ProvisionedThroughput(string Field, double RequestUnits);

/// <summary>An endpoint a plan names, and the field that names it (where an error about it belongs).</summary>
public sealed record TargetEndpoint(string Field, Uri Endpoint);

/// <summary>What a target stores, in words.</summary>
public sealed record TargetUnit(string Singular, string Plural)
{
    public static TargetUnit Documents { get; } = new("document", "documents");
}

/// <summary>Where a module reports what is wrong with its settings.</summary>
public sealed class TargetChecks
{
    private readonly List<FieldError> _errors;

    internal TargetChecks(List<FieldError> errors) => _errors = errors;

    /// <summary>Adds <paramref name="message"/> for <paramref name="field"/> when <paramref name="invalid"/>.</summary>
    public void Check(bool invalid, string field, string message)
    {
        if (invalid)
        {
            _errors.Add(new FieldError(field, message));
        }
    }

    /// <summary>Refuses a value outside [min, max] (or (min, max] when <paramref name="aboveMin"/>); NaN is outside every range.</summary>
    public void CheckRange(double? value, string field, double min, double max, string message, bool aboveMin = false) =>
        Check(value is { } v && !((aboveMin ? v > min : v >= min) && v <= max), field, value is { } nan && double.IsNaN(nan) ? RunPlan.NotANumber : message);

    /// <summary>Refuses a choice that names none of its enum's values (JSON accepts numbers too).</summary>
    public void CheckChoice<TEnum>(TEnum value, string field)
        where TEnum : struct, Enum => Check(!Enum.IsDefined(value), field, $"Not one of {string.Join(", ", Enum.GetNames<TEnum>())}.");

    /// <summary>Refuses an empty or over-long name of a secret.</summary>
    public void CheckSecretName(string? name, string field, string whatItHolds)
    {
        Check(string.IsNullOrWhiteSpace(name), field, $"Name the secret that holds {whatItHolds}.");
        Check(name is { Length: > MaxSecretName }, field, $"At most {MaxSecretName} characters.");
    }

    /// <summary>The longest secret name.</summary>
    public const int MaxSecretName = 200;
}
