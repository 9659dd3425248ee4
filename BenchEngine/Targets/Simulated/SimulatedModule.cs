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

    public override IReadOnlyList<TargetField> Fields { get; } =
    [
        TargetField.Of(t => t.Simulator.ProvisionedRequestUnits, "Provisioned RU/s", TargetInput.WholeNumber) with { Setting = "RU/s", Help = "The budget the model spends each second; 429 when it is gone." },
        TargetField.Of(t => t.Simulator.PhysicalPartitions, "Physical partitions", TargetInput.WholeNumber) with { Help = "Empty: one per 10,000 RU/s. Each gets an equal share of the budget.", WhenEmpty = "one per 10,000 RU/s" },
        TargetField.Choice<IndexingMode>(t => t.Simulator.Indexing, "Indexing") with { Help = "Consistent costs ≈ 0.2 RU per indexed term on top of 5 RU per KB." },
        TargetField.Of(t => t.Simulator.Seed, "Random seed", TargetInput.WholeNumber) with { Setting = "Latency model seed", Help = "The same seed gives the same latency draws." },
        TargetField.Of(t => t.Simulator.MedianLatencyMs, "Median latency (ms)", TargetInput.Number) with { Help = "Of a successful write; the spread is lognormal." },
    ];

    public override IInsertTarget Create(TargetOptions options, TargetContext context) => new SimulatedCosmosTarget(options.Simulator, context.Time);

    public override void Validate(TargetOptions options, TargetChecks checks)
    {
        var sim = options.Simulator;
        checks.CheckChoice(sim.Indexing, "Target.Simulator.Indexing");
        checks.Check(sim.ProvisionedRequestUnits < 400, "Target.Simulator.ProvisionedRequestUnits", "At least 400 RU/s, as in the real service.");
        checks.Check(sim.ProvisionedRequestUnits > 10_000_000, "Target.Simulator.ProvisionedRequestUnits", "At most 10,000,000 RU/s.");
        checks.Check(sim.Shards is < 1 or > Workloads.WorkloadShard.MaxCount, "Target.Simulator.Shards", $"Between 1 and {Workloads.WorkloadShard.MaxCount}.");
        checks.Check(sim.PhysicalPartitions is < 1 or > 1_000, "Target.Simulator.PhysicalPartitions", "Between 1 and 1,000.");
        checks.Check(sim.PhysicalPartitions is { } p && sim.ProvisionedRequestUnits / (double)p > SimulatedCosmosTarget.RequestUnitsPerPartition,
            "Target.Simulator.PhysicalPartitions", $"A physical partition serves at most {SimulatedCosmosTarget.RequestUnitsPerPartition:N0} RU/s: use more partitions or fewer RU/s.");
        checks.CheckRange(sim.MedianLatencyMs, "Target.Simulator.MedianLatencyMs", 0, 10_000, "Above 0 and at most 10,000 ms.", aboveMin: true);
    }

    /// <summary>Each agent's model has its share of the account's budget: together they throttle as one account would.</summary>
    public override TargetOptions ForShard(TargetOptions options, int index, int count) =>
        options with { Simulator = options.Simulator with { Shards = count } };

    public override string Describe(TargetOptions options) =>
        string.Create(CultureInfo.InvariantCulture, $"{DisplayName} (model), {options.Simulator.ProvisionedRequestUnits:N0} RU/s");

    public double? PlannedRequestUnits(TargetOptions options) => options.Simulator.ProvisionedRequestUnits;
}
