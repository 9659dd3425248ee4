using System.Globalization;

namespace BenchEngine.Targets;

public readonly partial record struct TargetKind
{
    /// <summary>In-process model of Cosmos DB (RU budget per partition, 429s, latency). Not a real service.</summary>
    public static TargetKind Simulated { get; } = new("Simulated");
}

public sealed partial record TargetOptions
{
    /// <summary>The simulator's settings (also what a real preset's simulated twin runs with).</summary>
    public SimulatorOptions Simulator { get; init; } = new();
}

/// <summary>The built-in simulated Cosmos DB: needs no account, and is labelled a model everywhere.</summary>
internal sealed class SimulatedModule : TargetModule, IRequestUnitThroughput
{
    public override TargetKind Kind => TargetKind.Simulated;

    public override string DisplayName => "Simulated Cosmos DB";

    public override string ChoiceNote => "model, no account";

    public override string Section => "Simulator";

    public override bool IsModel => true;

    public override int MaxBatchSize => Running.RunPlan.MaxTableBatch;

    public override bool BatchesSharePartitionKey => true;

    private static readonly TargetField ProvisionedRequestUnits =
        TargetField.Of(t => t.Simulator.ProvisionedRequestUnits, "Provisioned RU/s", TargetInput.WholeNumber) with
        {
            Setting = "RU/s",
            Help = "The budget the model spends each second; 429 when it is gone.",
            Min = 400,
            Max = 10_000_000,
        };

    private static readonly TargetField PhysicalPartitions =
        TargetField.Of(t => t.Simulator.PhysicalPartitions, "Physical partitions", TargetInput.WholeNumber) with
        {
            Help = "Empty: one per 10,000 RU/s. Each gets an equal share of the budget.",
            WhenEmpty = "one per 10,000 RU/s",
            Min = 1,
            Max = 1_000,
        };

    private static readonly TargetField Indexing =
        TargetField.Choice<IndexingMode>(t => t.Simulator.Indexing, "Indexing") with { Help = "Consistent costs ≈ 0.2 RU per indexed term on top of 5 RU per KB." };

    private static readonly TargetField Seed =
        TargetField.Of(t => t.Simulator.Seed, "Random seed", TargetInput.WholeNumber) with { Setting = "Latency model seed", Help = "The same seed gives the same latency draws." };

    private static readonly TargetField MedianLatencyMs =
        TargetField.Of(t => t.Simulator.MedianLatencyMs, "Median latency (ms)", TargetInput.Number) with
        {
            Help = "Of a successful write; the spread is lognormal.",
            Min = 0,
            MinExclusive = true,
            Max = 10_000,
        };

    // Set for each agent of a shared run (ForShard), never in the editor.
    private static readonly string Shards = TargetField.PathOf(t => t.Simulator.Shards);

    public override IReadOnlyList<TargetField> Fields { get; } = [ProvisionedRequestUnits, PhysicalPartitions, Indexing, Seed, MedianLatencyMs];

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new SimulatedCosmosTarget(options.Simulator, context.Time);

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var sim = options.Simulator;
        checks.CheckChoice(sim.Indexing, Indexing);
        checks.CheckBounds(ProvisionedRequestUnits, sim.ProvisionedRequestUnits, "At least 400 RU/s, as in the real service.", "At most 10,000,000 RU/s.");
        checks.Check(sim.Shards is < 1 or > Workloads.WorkloadShard.MaxCount, Shards, $"Between 1 and {Workloads.WorkloadShard.MaxCount}.");
        checks.CheckBounds(PhysicalPartitions, sim.PhysicalPartitions, "Between 1 and 1,000.");
        checks.Check(sim.PhysicalPartitions is { } p && PhysicalPartitions.Admits(p) && sim.ProvisionedRequestUnits / (double)p > SimulatedCosmosTarget.RequestUnitsPerPartition,
            PhysicalPartitions, $"A physical partition serves at most {SimulatedCosmosTarget.RequestUnitsPerPartition:N0} RU/s: use more partitions or fewer RU/s.");
        checks.CheckBounds(MedianLatencyMs, sim.MedianLatencyMs, "Above 0 and at most 10,000 ms.");
    }

    /// <summary>Each agent's model has its share of the account's budget: together they throttle as one account would.</summary>
    public override TargetOptions ForShard(TargetOptions options, int index, int count) =>
        options with { Simulator = options.Simulator with { Shards = count } };

    public override string Describe(TargetOptions options) =>
        string.Create(CultureInfo.InvariantCulture, $"{DisplayName} (model), {options.Simulator.ProvisionedRequestUnits:N0} RU/s");

    public double? PlannedRequestUnits(TargetOptions options) => options.Simulator.ProvisionedRequestUnits;
}
