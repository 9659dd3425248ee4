namespace BenchEngine.Targets;

/// <summary>Every kind of target the application knows: one line per target. The profile form offers them in this order.</summary>
public static class TargetRegistry
{
    /// <summary>The registered modules, the default (the simulator, which needs no account) first.</summary>
    public static IReadOnlyList<TargetModule> All { get; } =
    [
        new SimulatedModule(),
        new CosmosSqlModule(),
        TablesModule.TableStorage,
        TablesModule.CosmosTable,
        new BlobsModule(),
        new QueuesModule(),
        new RedisModule(),
        new NoOpModule(),
    ];

    /// <summary>The kind a new profile starts with: the first registered, which needs no account.</summary>
    public static TargetKind Default => All[0].Kind;

    /// <summary>Stands for a kind no module claims (a plan from a newer version, or a typo): it opens nothing and names nothing.</summary>
    public static TargetModule Unknown { get; } = new UnknownModule();

    private static readonly Dictionary<string, TargetModule> ByName = All.ToDictionary(m => m.Kind.Name, StringComparer.Ordinal);

    /// <summary>The module of <paramref name="kind"/>, or <see cref="Unknown"/>.</summary>
    public static TargetModule Of(TargetKind kind) => ByName.GetValueOrDefault(kind.Name) ?? Unknown;

    /// <summary>The kind a name stands for: a registered kind's own spelling whatever the case (<c>cosmossql</c> is
    /// <c>CosmosSql</c>, as the enum it replaced read it), else the name as given (refused by validation).</summary>
    public static TargetKind Parse(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return All.FirstOrDefault(m => string.Equals(m.Kind.Name, name.Trim(), StringComparison.OrdinalIgnoreCase))?.Kind ?? new TargetKind(name);
    }

    /// <summary>Whether a module claims <paramref name="kind"/>.</summary>
    public static bool IsKnown(TargetKind kind) => ByName.ContainsKey(kind.Name);

    /// <summary>The kinds' names, for "not one of …" messages.</summary>
    public static string Names => string.Join(", ", All.Select(m => m.Kind.Name));

    /// <summary>The secret names the kinds' settings default to (<c>COSMOS_KEY</c>, <c>TABLES_CONNECTION_STRING</c>,
    /// <c>BLOBS_CONNECTION_STRING</c>…): the environment variables a host lets profiles name unless it says otherwise.</summary>
    public static IReadOnlyList<string> DefaultSecretNames => field ??=
    [
        .. All.SelectMany(m => m.Fields)
            .Where(f => f.Input == TargetInput.Secret)
            .Select(f => TargetSettings.DefaultText(f.Path))
            .OfType<string>()
            .Distinct(StringComparer.Ordinal),
    ];

    /// <summary>Opens the target a plan names (what <see cref="Running.BenchmarkRunner"/> does by default).</summary>
    public static IInsertTarget Create(TargetOptions options, TargetContext context)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(context);
        return options.Kind.Module.Create(options, context);
    }

    private sealed class UnknownModule : TargetModule
    {
        public override TargetKind Kind => new("");

        public override string DisplayName => "Unknown target";

        public override IInsertTarget Create(TargetOptions options, TargetContext context) =>
            throw new TargetConfigurationException($"There is no target of kind '{options.Kind.Name}'. Choose one of {Names}.");
    }
}
