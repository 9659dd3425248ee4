namespace BenchEngine.Targets;

/// <summary>Creates the target a plan names.</summary>
public static class TargetFactory
{
    public static IInsertTarget Create(TargetOptions options, TargetContext context)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(context);
        return options.Kind switch
        {
            TargetKind.Simulated => new SimulatedCosmosTarget(options.Simulator, context.Time),
            TargetKind.CosmosSql => new CosmosTarget(options.Cosmos, context),
            TargetKind.TableStorage or TargetKind.CosmosTable => new TableTarget(options.Kind, options.Tables, context),
            TargetKind.NoOp => new NoOpTarget(),
            _ => throw new ArgumentOutOfRangeException(nameof(options), options.Kind, "Unknown target kind."),
        };
    }
}
