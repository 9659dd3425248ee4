using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// What the rest of the application knows about every kind of target, declared in the target's own folder: its name and
/// units, its limits (batch size, item size), the fields its profile-editor section shows, how to validate and describe its
/// settings, and how to open it. Pages, validation, comparisons and the run history ask the kind's module
/// (<see cref="TargetKind.Module"/>); none of them switches on a kind.
/// </summary>
/// <remarks>
/// <para>What only some kinds have is a capability the module implements when it has it, and callers ask for it
/// (<c>module is IServiceEndpoints endpoints</c>): <see cref="IRequestUnitThroughput"/> (request units, and the throughput a
/// plan provisions), <see cref="IServiceEndpoints"/> (where it connects, for the endpoint allow-list and the audit log) and
/// <see cref="IClientConnection"/> (how the client connects, for the results table).</para>
/// <para>A new target is a folder with its options (a part of <see cref="TargetOptions"/>), its <see cref="IInsertTarget"/>,
/// its module, and one line in <see cref="TargetRegistry"/>. Its presets, if any, go in <c>Presets/</c>.</para>
/// </remarks>
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

    /// <summary>The plan's settings section this kind reads (<c>Cosmos</c> for <c>Target.Cosmos.*</c>); null when it reads none.
    /// A plan written to JSON keeps this section only (<see cref="TargetOptions"/>).</summary>
    public virtual string? Section => null;

    /// <summary>A model or a client-only target rather than a real service (the UI labels it).</summary>
    public virtual bool IsModel => false;

    /// <summary>How a run's page labels a <see cref="IsModel"/> target, and the label's longer title.</summary>
    public virtual (string Label, string Title) ModelLabel =>
        ("simulated — a model, not Azure", "The built-in simulated Cosmos DB: a model of the service, not a measurement of Azure");

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

    /// <summary>Opens the target for one run.</summary>
    public abstract IInsertTarget Create(TargetOptions options, TargetContext context);

    /// <summary>Checks its own settings, reporting each problem on the field it is about (its path, <c>Target.Cosmos.Endpoint</c>);
    /// a range rule reads the bounds its field declares.</summary>
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

    /// <summary>The target's settings for shard <paramref name="index"/> of a run spread over <paramref name="count"/>
    /// agents. A real service is shared as it is (the default); a model gives each agent its share of what it models.</summary>
    public virtual TargetOptions ForShard(TargetOptions options, int index, int count) => options;
}

/// <summary>What a target stores, in words.</summary>
public sealed record TargetUnit(string Singular, string Plural)
{
    public static TargetUnit Documents { get; } = new("document", "documents");
}

/// <summary>Where a module reports what is wrong with its settings: each problem on the path of the field it is about.</summary>
public sealed class TargetChecks
{
    private readonly List<FieldError> _errors;

    internal TargetChecks(List<FieldError> errors) => _errors = errors;

    /// <summary>Adds <paramref name="message"/> on <paramref name="field"/>'s path when <paramref name="invalid"/>.</summary>
    public void Check(bool invalid, TargetField field, string message)
    {
        ArgumentNullException.ThrowIfNull(field);
        Check(invalid, field.Path, message);
    }

    /// <summary>Adds <paramref name="message"/> on the field path <paramref name="path"/> when <paramref name="invalid"/>:
    /// for a setting no editor field edits (<see cref="TargetField.PathOf{T}"/> gives its path).</summary>
    public void Check(bool invalid, string path, string message)
    {
        if (invalid)
        {
            _errors.Add(new FieldError(path, message));
        }
    }

    /// <summary>Refuses a value outside the bounds <paramref name="field"/> declares (<see cref="TargetField.Min"/>,
    /// <see cref="TargetField.Max"/>, <see cref="TargetField.MinExclusive"/>) with <paramref name="message"/>; NaN, which
    /// is in no range, with <see cref="RunPlan.NotANumber"/>. No value (null) is not refused.</summary>
    public void CheckBounds(TargetField field, double? value, string message) => CheckBounds(field, value, message, message);

    /// <summary>As <see cref="CheckBounds(TargetField, double?, string)"/>, with one message for a value below the bounds
    /// and another for one above.</summary>
    public void CheckBounds(TargetField field, double? value, string belowMin, string aboveMax)
    {
        ArgumentNullException.ThrowIfNull(field);
        if (Bounds.Refusal(field.Min, field.Max, field.MinExclusive, maxExclusive: false, value, belowMin, aboveMax) is { } message)
        {
            _errors.Add(new FieldError(field.Path, message));
        }
    }

    /// <summary>Refuses a choice that names none of its enum's values (JSON accepts numbers too).</summary>
    public void CheckChoice<TEnum>(TEnum value, TargetField field)
        where TEnum : struct, Enum => Check(!Enum.IsDefined(value), field, $"Not one of {string.Join(", ", Enum.GetNames<TEnum>())}.");

    /// <summary>Refuses an empty or over-long name of a secret, and a value that is no name: a plan names its secrets (an
    /// environment variable, a secret the dashboard stores), it never holds one, so a pasted key or connection string
    /// (<c>+</c>, <c>/</c>, <c>=</c>, <c>;</c>) is refused before anything stores or shows it.</summary>
    /// <param name="name">The secret's name as the plan gives it.</param>
    /// <param name="field">The field that names it.</param>
    /// <param name="whatItHolds">What the secret holds, in words: "the account key".</param>
    /// <param name="example">A name that fits the target, for the message: <c>STORAGE_CONNECTION_STRING</c>, <c>REDIS_ACCESS_KEY</c>.</param>
    public void CheckSecretName(string? name, TargetField field, string whatItHolds, string example)
    {
        Check(string.IsNullOrWhiteSpace(name), field, $"Name the secret that holds {whatItHolds}.");
        Check(name is { Length: > MaxSecretName }, field, $"At most {MaxSecretName} characters.");
        Check(!string.IsNullOrWhiteSpace(name) && name.Length <= MaxSecretName && !IsSecretName(name), field,
            $"Give the name of the secret that holds {whatItHolds} (letters, digits, '_', '-' and '.', e.g. {example}), never the value itself: "
            + "paste a value in the profile editor, which stores it encrypted, or set it in an environment variable.");
    }

    /// <summary>Whether a text has the shape of a secret's name: letters, digits, <c>_</c>, <c>-</c> and <c>.</c> (an
    /// environment variable's, a stored secret's such as <c>profile-3-cosmos-key</c>).</summary>
    public static bool IsSecretName(string name) =>
        name.Length > 0 && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '-' or '.');

    /// <summary>The longest secret name.</summary>
    public const int MaxSecretName = 200;
}
