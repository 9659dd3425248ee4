using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Sweeps;

/// <summary>A built-in sweep: a plan, the setting it sweeps and why.</summary>
public sealed record SweepPreset(string Id, string Title, string Summary, RunPlan Plan, SweepOptions Sweep)
{
    /// <summary>What the sweep tells you, in one line of plain words, for lists.</summary>
    public required string Tells { get; init; }

    /// <summary>The study it belongs to, for grouping and filtering.</summary>
    public required Presets.PresetStudy Study { get; init; }
}

/// <summary>
/// The seed studies that took many hand-launched runs, each as one sweep: the client-tuning study behind the G presets
/// (Gateway vs Direct × concurrency) and the batch study for Table Storage (batch size 1…100). Like every preset they run
/// on the simulator at once (<see cref="Presets.SeedPresets.OnSimulator"/>) before they are run against an account.
/// </summary>
public static class SweepPresets
{
    public static IReadOnlyList<SweepPreset> All { get; } =
    [
        new(
            "G-study",
            "Client tuning: Gateway vs Direct × concurrency",
            "The 17 runs of the G study as one sweep: ~150 B upserts into a 10,000 RU/s container, 30 s a step, concurrency "
                + "5 to 200 in each connection mode, a series stopping when two steps in a row add less than 5 %. The knee is the "
                + "concurrency where throughput stops growing and p99 starts to climb; a client at its CPU limit is named as "
                + "the limit. The simulator models neither mode's client cost, so on it both series are alike.",
            new RunPlan
            {
                Name = "G-study: Gateway vs Direct × concurrency",
                Target = new TargetOptions
                {
                    Kind = TargetKind.CosmosSql,
                    Operation = WriteOperation.Upsert,
                    Cosmos = new CosmosOptions { Container = "seed-g-10k", RequestUnits = 10_000, Throughput = ThroughputMode.Manual },
                    Simulator = new SimulatorOptions { PhysicalPartitions = 5 },
                },
                Workload = new WorkloadOptions { Shape = DocumentShape.SmallDto },
                Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = 10 },
                Stop = new StopOptions { DurationSeconds = 30 },
            },
            new SweepOptions
            {
                Setting = PlanSettingsCatalog.Concurrency.Path,
                Values = ["5", "10", "20", "50", "100", "200"],
                SeriesSetting = "Target.Cosmos.ConnectionMode",
                SeriesValues = ["Gateway", "Direct"],
                EarlyStop = new EarlyStopOptions(),
            })
        {
            Tells = "The concurrency past which more workers stop paying, in each connection mode, and whether the client or the service stopped them.",
            Study = Presets.PresetStudy.ClientTuning,
        },
        new(
            "T-batch",
            "Table Storage batch size 1…100",
            "Entity-group transactions of 1 to 100 flight entities sharing their origin airport as partition key, 8 in flight, "
                + "20 s a step: where does a bigger batch stop paying? Table Storage throttles with 503/500; the simulated "
                + "version models Cosmos DB with indexing off.",
            new RunPlan
            {
                Name = "T-batch: Table Storage batch size 1…100",
                Target = new TargetOptions
                {
                    Kind = TargetKind.TableStorage,
                    Operation = WriteOperation.Create,
                    Tables = new TableOptions { TableName = "batchstudy" },
                    Simulator = new SimulatorOptions { Indexing = IndexingMode.None },
                },
                Workload = new WorkloadOptions
                {
                    Shape = DocumentShape.Flight,
                    PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FieldValue, Field = "Origin" },
                },
                Load = new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = 8 },
                Stop = new StopOptions { DurationSeconds = 20 },
            },
            new SweepOptions
            {
                Setting = PlanSettingsCatalog.BatchSize.Path,
                Values = ["1", "2", "5", "10", "20", "50", "100"],
            })
        {
            Tells = "The batch size past which bigger batches stop adding entities a second.",
            Study = Presets.PresetStudy.TableBatches,
        },
    ];

    /// <summary>The sweep preset with this id, ignoring case; null when there is none.</summary>
    public static SweepPreset? Find(string id) =>
        All.FirstOrDefault(p => string.Equals(p.Id, id, StringComparison.OrdinalIgnoreCase));
}
