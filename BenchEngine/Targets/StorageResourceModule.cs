using System.Linq.Expressions;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// A Storage service written one item per request into one named container or queue (Blob and Queue Storage): a
/// connection-string secret, the resource's name (3–63 lowercase letters, digits and single hyphens) and whether to
/// create it. Its fields, validation, description and endpoint follow from the section and the service.
/// </summary>
internal abstract class StorageResourceModule : TargetModule, IServiceEndpoints
{
    private readonly StorageService _service;
    private readonly string _resource;
    private readonly TargetField _secret;
    private readonly TargetField _name;
    private readonly TargetField _create;

    /// <param name="section">The plan's settings section: <c>Blobs</c> for <c>Target.Blobs.*</c>.</param>
    /// <param name="service">The service, whose endpoint a connection string names.</param>
    /// <param name="unit">What it stores.</param>
    /// <param name="itemLimit">The largest item, and how it is counted.</param>
    /// <param name="resource">The resource in words: "container", "queue".</param>
    /// <param name="writes">What a write does, for the name's help line.</param>
    /// <param name="secret">The options' property naming the connection string's secret.</param>
    /// <param name="name">The options' property naming the resource: <c>t =&gt; t.Blobs.ContainerName</c>.</param>
    /// <param name="create">The options' property saying whether to create it.</param>
    protected StorageResourceModule(
        string section,
        StorageService service,
        TargetUnit unit,
        ItemSizeLimit itemLimit,
        string resource,
        string writes,
        Expression<Func<TargetOptions, string>> secret,
        Expression<Func<TargetOptions, string>> name,
        Expression<Func<TargetOptions, bool>> create)
    {
        Section = section;
        _service = service;
        _resource = resource;
        Unit = unit;
        ItemLimit = itemLimit;
        _secret = TargetField.Of(secret, "Connection string", TargetInput.Secret) with
        {
            SecretPurpose = $"{Section.ToLowerInvariant()}-connection-string",
            SecretHolds = "the connection string",
        };
        _name = TargetField.Of(name, char.ToUpperInvariant(resource[0]) + resource[1..], TargetInput.Text) with { Help = StorageRequests.NameRule + " " + writes };
        _create = TargetField.Of(create, $"Create the {resource} if missing", TargetInput.Flag);
        Fields = [_secret, _name, _create];
    }

    public sealed override string Section { get; }

    public abstract IReadOnlyList<string> ServiceHostPatterns { get; }

    public override TargetUnit Unit { get; }

    public override ItemSizeLimit ItemLimit { get; }

    public override IReadOnlyList<TargetField> Fields { get; }

    // The plan's secret name and resource name, from this kind's section.
    private (string? Secret, string? Name) Settings(TargetOptions options) => ((string?)_secret.ValueIn(options), (string?)_name.ValueIn(options));

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var (secret, name) = Settings(options);
        checks.CheckSecretName(secret, _secret, "the connection string", $"{Section.ToUpperInvariant()}_CONNECTION_STRING");
        checks.Check(!StorageRequests.IsValidContainerOrQueueName(name), _name, StorageRequests.NameRule);
    }

    public override string Describe(TargetOptions options) => $"{DisplayName}, {_resource} {Settings(options).Name}";

    public Uri? EndpointOfSecret(TargetField field, string value) => StorageConnectionString.EndpointOf(value, _service);
}
