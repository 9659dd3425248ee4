using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace BenchEngine.Presets;

/// <summary>
/// The catalogue of built-in presets: the seed experiments, then the rows of the storage services' comparison tables
/// (<see cref="StoragePresets"/>); and the mapping that runs any of them on the simulated Cosmos DB, so each one can be tried
/// without an account before it is run against a paid one.
/// </summary>
/// <remarks>
/// A real plan's <see cref="TargetOptions.Simulator"/> section is ignored by the real target, and not written when the plan
/// is stored (a stored plan keeps its own kind's section only); presets use it to say how to model their service (physical
/// partitions, and for tables the account's indexing), which the plan has no other place for. <see cref="OnSimulator"/>
/// reads it from the preset's plan.
/// </remarks>
public static class SeedPresets
{
    /// <summary>Throughput modelled for table targets, whose plans carry none (the seed L1 table had 10,000 RU/s).</summary>
    public const int TableRequestUnits = 10_000;

    /// <summary>The seed-000 flight record with its padding, ~1,725 B.</summary>
    private const int FlightBytes = 1_725;

    private const string SimulatedSuffix = " (simulated)";

    /// <summary>Every seed preset, in the order of the design notes.</summary>
    private static IReadOnlyList<Preset> Seeds { get; } =
    [
        new()
        {
            Id = "G1",
            Title = "Gateway mode, 10 tasks × 100,000 upserts",
            Summary = "How fast can a small App Service upsert ~150 B documents with GUID keys through the gateway (HTTPS)? "
                + "Watch client CPU: the original used about a third of the 10,000 RU/s (at ~6 RU per upsert), so the client was the limit.",
            Tells = "How fast a small 2-core client upserts through the gateway, and whether its CPU, not the RU/s, is the limit.",
            Study = PresetStudy.ClientTuning,
            OriginalResult = "602 inserts/s on a 2-core App Service",
            OriginalInsertsPerSecond = 602,
            Plan = SmallDtoPlan("G1", "Gateway mode, 10 tasks × 100,000 upserts", CosmosConnectionMode.Gateway, 10_000, "seed-g-10k", 10, 100_000, partitions: 5),
        },
        new()
        {
            Id = "G2",
            Title = "Direct mode, 10 tasks × 100,000 upserts",
            Summary = "G1 in Direct (TCP) mode: what the connection mode alone buys with the same client and container. Compare with G1.",
            Tells = "What Direct mode alone gains over the gateway, with the same client and container.",
            Study = PresetStudy.ClientTuning,
            OriginalResult = "927 inserts/s on the same 2-core App Service",
            OriginalInsertsPerSecond = 927,
            Plan = SmallDtoPlan("G2", "Direct mode, 10 tasks × 100,000 upserts", CosmosConnectionMode.Direct, 10_000, "seed-g-10k", 10, 100_000, partitions: 5),
        },
        new()
        {
            Id = "G4",
            Title = "Direct mode, 20 tasks × 50,000 upserts",
            Summary = "Twice the workers on an 8-core client against the same 10,000 RU/s container: does throughput follow "
                + "the worker count, or does the client or the RU budget stop it? Watch client CPU and the throttled share.",
            Tells = "Whether twice the workers on 8 cores give twice the throughput, or the client or the RU budget stops them.",
            Study = PresetStudy.ClientTuning,
            OriginalResult = "1,138 inserts/s on 8 cores",
            OriginalInsertsPerSecond = 1_138,
            Plan = SmallDtoPlan("G4", "Direct mode, 20 tasks × 50,000 upserts", CosmosConnectionMode.Direct, 10_000, "seed-g-10k", 20, 50_000, partitions: 5),
        },
        new()
        {
            Id = "G14",
            Title = "20,000 RU/s, 50 tasks × 20,000 upserts",
            Summary = "The container at 20,000 RU/s and 50 workers on 8 cores: with the budget doubled, is the client now the limit? "
                + "Compare RU/s used with RU/s provisioned.",
            Tells = "Whether the client becomes the limit once the container has 20,000 RU/s.",
            Study = PresetStudy.ClientTuning,
            OriginalResult = "2,060 inserts/s on 8 cores",
            OriginalInsertsPerSecond = 2_060,
            Plan = SmallDtoPlan("G14", "20,000 RU/s, 50 tasks × 20,000 upserts", CosmosConnectionMode.Direct, 20_000, "seed-g-20k", 50, 20_000, partitions: null),
        },
        new()
        {
            Id = "G17",
            Title = "20,000 RU/s, 100 tasks × 10,000 upserts",
            Summary = "100 workers from a D8s v3 VM instead of App Service, against 20,000 RU/s: the fastest G run. "
                + "Look for where throttles start: at this rate the RU budget, not the client, becomes the limit.",
            Tells = "Where throttling starts when a large VM drives 20,000 RU/s: the budget, not the client, is the limit.",
            Study = PresetStudy.ClientTuning,
            OriginalResult = "4,256 inserts/s from a D8s v3 VM",
            OriginalInsertsPerSecond = 4_256,
            Plan = SmallDtoPlan("G17", "20,000 RU/s, 100 tasks × 10,000 upserts", CosmosConnectionMode.Direct, 20_000, "seed-g-20k", 100, 10_000, partitions: null),
        },
        new()
        {
            Id = "L1",
            Title = "Flights into the Cosmos DB Table API, sequential batches of 100",
            Summary = "The seed-000 loader: BTS flight records padded to ~1,725 B, in batches of 100 sharing the Origin airport, "
                + "one batch at a time, into a 10,000 RU/s table. The Table target does not provision throughput: set it on the account. "
                + "Look at batches/s, the per-batch P96 and the 429s from the start.",
            Tells = "How many batches of 100 rows a second a 10,000 RU/s Table API table takes, and how soon it throttles.",
            Study = PresetStudy.FlightLoader,
            OriginalResult = "4–5 batches/s (400–500 rows/s), P96 batch 283 ms, 429s early",
            OriginalInsertsPerSecond = 450,
            Plan = FlightPlan("L1", "Flights into the Cosmos DB Table API, sequential batches of 100", TargetKind.CosmosTable,
                LoadModel.ClosedLoop, concurrency: 1, totalDocuments: 50_000, IndexingMode.Consistent),
        },
        new()
        {
            Id = "L3",
            Title = "Flights into Table Storage, 10 parallel batches of 100 in waves",
            Summary = "The loader with 10 batches in flight, each wave waiting for its slowest batch, into Table Storage, "
                + "which throttles with 503/500, not 429. The baseline for L4 and L5. Its simulated version models Cosmos DB, "
                + "not Table Storage, with indexing off.",
            Tells = "How Table Storage takes waves of parallel batches, and when it answers 503 instead of 429.",
            Study = PresetStudy.FlightLoader,
            OriginalResult = "No figure of its own in the seed notes; the series' result is L5's",
            Plan = FlightPlan("L3", "Flights into Table Storage, 10 parallel batches of 100 in waves", TargetKind.TableStorage,
                LoadModel.Waves, concurrency: 10, totalDocuments: 20_000, IndexingMode.None),
        },
        new()
        {
            Id = "L4",
            Title = "Flights into the Cosmos DB Table API, 10 parallel batches of 100 in waves",
            Summary = "L3's waves into the Cosmos DB Table API. Indexing is an account setting there, not part of the plan; "
                + "the simulated version models indexing off (None; the lazy indexing of the time no longer exists) to contrast with L5.",
            Tells = "The same waves into the Cosmos DB Table API without indexing: the contrast to consistent indexing.",
            Study = PresetStudy.FlightLoader,
            OriginalResult = "No figure of its own in the seed notes; the series' result is L5's",
            Plan = FlightPlan("L4", "Flights into the Cosmos DB Table API, 10 parallel batches of 100 in waves", TargetKind.CosmosTable,
                LoadModel.Waves, concurrency: 10, totalDocuments: 20_000, IndexingMode.None),
        },
        new()
        {
            Id = "L5",
            Title = "Flights into the Cosmos DB Table API with consistent indexing, waves of 10 batches",
            Summary = "L4 on an account with consistent indexing (the Table API's default; an account setting, not part of the plan). "
                + "Every property of every flight is indexed, so a batch of 100 costs many times a point write: look at the throttled share. "
                + "The simulated version uses consistent indexing: each wave asks for about twice the second's budget.",
            Tells = "What indexing every property costs a batch of 100 rows: most requests are throttled.",
            Study = PresetStudy.FlightLoader,
            OriginalResult = "With consistent indexing no request succeeded",
            Plan = FlightPlan("L5", "Flights into the Cosmos DB Table API with consistent indexing, waves of 10 batches", TargetKind.CosmosTable,
                LoadModel.Waves, concurrency: 10, totalDocuments: 20_000, IndexingMode.Consistent),
        },
        new()
        {
            Id = "J1",
            Title = "400 RU/s, ~10 upserts/s open loop",
            Summary = "Latency at a gentle, steady rate: ~10 upserts/s of the ~200 B performance record against the minimum 400 RU/s, "
                + "started on a schedule so latency counts from the intended start. Look at P99, not only the average.",
            Tells = "The latency of a gentle, steady 10 writes a second on the smallest container: its P99, not only the average.",
            Study = PresetStudy.Latency,
            OriginalResult = "Average 5.9 ms, P99 15 ms",
            Plan = CosmosPlan(
                "J1", "400 RU/s, ~10 upserts/s open loop",
                new CosmosOptions { Container = "seed-j1", RequestUnits = 400 },
                WriteOperation.Upsert,
                new WorkloadOptions { Shape = DocumentShape.PerformanceData },
                new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 10, Concurrency = 10 },
                new StopOptions { DurationSeconds = 120 },
                partitions: 1),
        },
        new()
        {
            Id = "J3",
            Title = "15,000 RU/s, 32 closed-loop workers",
            Summary = "32 workers upserting the ~200 B performance record for 5 minutes against 15,000 RU/s. "
                + "Compare the average throughput with the P99 of the per-second throughput, the figures the original reported.",
            Tells = "How far 32 workers' average throughput sits below their best seconds (the P99 of the per-second rate).",
            Study = PresetStudy.Latency,
            OriginalResult = "Average 1,480 inserts/s, P99 of 1-s throughput 2,300/s",
            OriginalInsertsPerSecond = 1_480,
            Plan = CosmosPlan(
                "J3", "15,000 RU/s, 32 closed-loop workers",
                new CosmosOptions { Container = "seed-j3", RequestUnits = 15_000 },
                WriteOperation.Upsert,
                new WorkloadOptions { Shape = DocumentShape.PerformanceData },
                new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = 32 },
                new StopOptions { DurationSeconds = 300 },
                partitions: null),
        },
        new()
        {
            Id = "B3",
            Title = "1,000 concurrent point inserts at 5,000 RU/s",
            Summary = "Every one of 1,000 ~320 B records created at once (Task.WhenAll) into a one-partition, 5,000 RU/s container: "
                + "how much of the budget do point writes use? Compare elapsed time and RU/s with B3-bulk.",
            Tells = "How little of 5,000 RU/s a thousand concurrent single writes use, and how long they take.",
            Study = PresetStudy.Bulk,
            OriginalResult = "9.20 s at 480 RU/s",
            OriginalInsertsPerSecond = 1_000 / 9.20,
            Plan = BulkSeedPlan("B3", "1,000 concurrent point inserts at 5,000 RU/s", bulk: false),
        },
        new()
        {
            Id = "B3-bulk",
            Title = "1,000 inserts in bulk mode at 5,000 RU/s",
            Summary = "B3 with the SDK's bulk mode, which groups concurrent writes into batches per partition. All 1,000 writes start at once, "
                + "as in the original, because bulk mode only groups what is in flight. The simulator does not model bulk grouping, "
                + "so the simulated version behaves like B3's.",
            Tells = "How much faster bulk mode writes the same thousand records, using more of the budget.",
            Study = PresetStudy.Bulk,
            OriginalResult = "1.09 s at 4,404 RU/s",
            OriginalInsertsPerSecond = 1_000 / 1.09,
            Plan = BulkSeedPlan("B3-bulk", "1,000 inserts in bulk mode at 5,000 RU/s", bulk: true),
        },
    ];

    /// <summary>Every preset: the seed experiments, then the comparison tables' rows (Blob Storage, Queue Storage, Redis).</summary>
    public static IReadOnlyList<Preset> All { get; } = [.. Seeds, .. StoragePresets.All];

    /// <summary>The preset with this id, ignoring case (<c>g1</c> finds G1); null when there is none.</summary>
    public static Preset? Find(string id) =>
        All.FirstOrDefault(p => string.Equals(p.Id, id, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// The same experiment on the built-in simulated Cosmos DB: workload, load, stop and operation unchanged;
    /// the simulator gets the Cosmos DB RU/s (tables: <see cref="TableRequestUnits"/>), at least 400, over enough
    /// physical partitions that none serves more than 10,000 RU/s, and the container's indexing (tables: the
    /// plan's simulator indexing, since indexing is an account setting there).
    /// </summary>
    public static RunPlan OnSimulator(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var target = plan.Target;
        if (target.Kind.Module.IsModel)
        {
            return plan;
        }

        var throughput = target.Kind.Module as IRequestUnitThroughput;
        var requestUnits = Math.Max(400, (int)(throughput?.PlannedRequestUnits(target) ?? TableRequestUnits));
        var fewestPartitions = (int)Math.Ceiling(requestUnits / (double)SimulatedCosmosTarget.RequestUnitsPerPartition);
        return plan with
        {
            Name = plan.Name.EndsWith(SimulatedSuffix, StringComparison.Ordinal) ? plan.Name : plan.Name + SimulatedSuffix,
            Target = target with
            {
                Kind = TargetKind.Simulated,
                Simulator = target.Simulator with
                {
                    ProvisionedRequestUnits = requestUnits,
                    PhysicalPartitions = Math.Max(fewestPartitions, target.Simulator.PhysicalPartitions ?? 1),
                    Indexing = throughput?.PlannedIndexing(target) ?? target.Simulator.Indexing,
                },
            },
        };
    }

    private static RunPlan SmallDtoPlan(string id, string title, CosmosConnectionMode mode, int requestUnits, string container, int workers, long perWorker, int? partitions) =>
        CosmosPlan(
            id,
            title,
            new CosmosOptions { ConnectionMode = mode, Container = container, RequestUnits = requestUnits },
            WriteOperation.Upsert,
            new WorkloadOptions { Shape = DocumentShape.SmallDto },
            new LoadOptions { Model = LoadModel.ClosedLoop, Concurrency = workers },
            new StopOptions { DocumentsPerWorker = perWorker },
            partitions);

    private static RunPlan BulkSeedPlan(string id, string title, bool bulk) =>
        CosmosPlan(
            id,
            title,
            new CosmosOptions { Container = "seed-b3", RequestUnits = 5_000, Bulk = bulk },
            WriteOperation.Create,
            new WorkloadOptions { Shape = DocumentShape.BulkRecord },
            new LoadOptions { Model = LoadModel.Unbounded },
            new StopOptions { TotalDocuments = 1_000 },
            partitions: 1);

    // The endpoint stays empty on purpose: validation then asks for the user's account.
    private static RunPlan CosmosPlan(
        string id,
        string title,
        CosmosOptions cosmos,
        WriteOperation operation,
        WorkloadOptions workload,
        LoadOptions load,
        StopOptions stop,
        int? partitions) => new()
    {
        Name = $"{id}: {title}",
        Target = new TargetOptions
        {
            Kind = TargetKind.CosmosSql,
            Operation = operation,
            Cosmos = cosmos with { Throughput = ThroughputMode.Manual },
            Simulator = new SimulatorOptions { PhysicalPartitions = partitions },
        },
        Workload = workload,
        Load = load,
        Stop = stop,
    };

    private static RunPlan FlightPlan(string id, string title, TargetKind kind, LoadModel model, int concurrency, long totalDocuments, IndexingMode modelledIndexing) => new()
    {
        Name = $"{id}: {title}",
        Target = new TargetOptions
        {
            Kind = kind,
            Operation = WriteOperation.Create,
            Tables = new TableOptions { TableName = "flights" },
            Simulator = new SimulatorOptions { Indexing = modelledIndexing },
        },
        Workload = new WorkloadOptions
        {
            Shape = DocumentShape.Flight,
            TargetSizeBytes = FlightBytes,
            PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FieldValue, Field = "Origin" },
        },
        Load = new LoadOptions { Model = model, Concurrency = concurrency, BatchSize = RunPlan.MaxTableBatch },
        Stop = new StopOptions { TotalDocuments = totalDocuments },
    };
}
