using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Uploads;

namespace BenchWeb.Profiles;

/// <summary>The profile editor's model: every engine setting as an editable property, converted to and from
/// the engine's <see cref="RunPlan"/>, whose rules decide what is valid. Typed secrets are write-only: they are
/// never filled from storage, only stored.</summary>
public sealed partial class ProfileForm
{
    public string Name { get; set; } = "My benchmark";

    public const int MaxDescriptionLength = 2_000;

    public string? Description { get; set; }

    public string? PresetId { get; set; }

    // Target
    public TargetKind TargetKind { get; set; } = TargetKind.Simulated;

    public WriteOperation Operation { get; set; } = WriteOperation.Create;

    public string? CosmosEndpoint { get; set; }

    public string CosmosKeySecret { get; set; } = "COSMOS_KEY";

    public string? NewCosmosKey { get; set; }

    public string CosmosDatabase { get; set; } = "benchweb";

    public string CosmosContainer { get; set; } = "inserts";

    public string CosmosPartitionKeyPath { get; set; } = "/PartitionKey";

    public CosmosConnectionMode ConnectionMode { get; set; } = CosmosConnectionMode.Direct;

    public bool LimitToEndpoint { get; set; }

    public bool AcceptAnyServerCertificate { get; set; }

    public bool Bulk { get; set; }

    public CosmosConsistency? ConsistencyLevel { get; set; }

    public int GatewayMaxConnections { get; set; } = 50;

    public bool ContentResponseOnWrite { get; set; }

    public bool CosmosCreateIfMissing { get; set; } = true;

    public IndexingMode CosmosIndexing { get; set; } = IndexingMode.Consistent;

    /// <summary>One path per line or separated by commas.</summary>
    public string? ExcludedPaths { get; set; }

    public ThroughputMode Throughput { get; set; } = ThroughputMode.Manual;

    public int? CosmosRequestUnits { get; set; } = 10_000;

    public string TablesConnectionStringSecret { get; set; } = "TABLES_CONNECTION_STRING";

    public string? NewTablesConnectionString { get; set; }

    public string TableName { get; set; } = "benchweb";

    public bool TableCreateIfMissing { get; set; } = true;

    public int SimulatorRequestUnits { get; set; } = 10_000;

    public int? SimulatorPartitions { get; set; }

    public IndexingMode SimulatorIndexing { get; set; } = IndexingMode.Consistent;

    public double SimulatorMedianLatencyMs { get; set; } = 5;

    public int SimulatorSeed { get; set; } = 7;

    // Workload
    public DocumentShape Shape { get; set; } = DocumentShape.SmallDto;

    public string? Template { get; set; }

    public int? TargetSizeBytes { get; set; }

    /// <summary>A server path from a profile saved before files were uploaded; kept only so that the form can say it is
    /// no longer allowed. The editor has no box for it.</summary>
    public string? CsvPath { get; set; }

    /// <summary>The uploaded CSV file, for the CsvFile shape.</summary>
    public long? CsvFileId { get; set; }

    /// <summary>Null: the shape's default strategy.</summary>
    public PartitionKeyStrategy? PartitionKeyStrategy { get; set; }

    public string? PartitionKeyField { get; set; }

    public int PartitionKeyCount { get; set; } = 10;

    public double HotKeyFraction { get; set; } = 0.8;

    public int WorkloadSeed { get; set; } = 1;

    // Load
    public LoadModel LoadModel { get; set; } = LoadModel.ClosedLoop;

    public int Concurrency { get; set; } = 10;

    public double? RatePerSecond { get; set; }

    public int BatchSize { get; set; } = 1;

    public int MaxRetries { get; set; } = 9;

    public bool SharedBackoff { get; set; } = true;

    public double BaseDelayMs { get; set; } = 100;

    // Stop
    public long? TotalDocuments { get; set; }

    public long? DocumentsPerWorker { get; set; }

    public double? DurationSeconds { get; set; } = 60;

    public bool AutoStopEnabled { get; set; }

    public double? AutoStopThrottledPercent { get; set; }

    public double? AutoStopErrorPercent { get; set; }

    /// <summary>Open loop: stop when more than this share of the due requests went unsent, %.</summary>
    public double? AutoStopDroppedPercent { get; set; }

    public int AutoStopWindowSeconds { get; set; } = 10;

    // Pass/fail
    public double? MinThroughput { get; set; }

    public double? MaxP99LatencyMs { get; set; }

    public double? MaxThrottledPercent { get; set; }

    /// <summary>Open loop: at most this share of the due requests may go unsent, %.</summary>
    public double? MaxDroppedPercent { get; set; }

    public long? BaselineRunId { get; set; }

    /// <summary>Percent in the form, a share in the plan.</summary>
    public double? MinPercentOfBaseline { get; set; }

    public static ProfileForm FromPlan(RunPlan plan, string? description = null, string? presetId = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var target = plan.Target;
        var cosmos = target.Cosmos;
        var tables = target.Tables;
        var sim = target.Simulator;
        var workload = plan.Workload;
        var load = plan.Load;
        var stop = plan.Stop;
        return new ProfileForm
        {
            Name = plan.Name,
            Description = description,
            PresetId = presetId,
            TargetKind = target.Kind,
            Operation = target.Operation,
            CosmosEndpoint = cosmos.Endpoint,
            CosmosKeySecret = cosmos.KeySecret,
            CosmosDatabase = cosmos.Database,
            CosmosContainer = cosmos.Container,
            CosmosPartitionKeyPath = cosmos.PartitionKeyPath,
            ConnectionMode = cosmos.ConnectionMode,
            LimitToEndpoint = cosmos.LimitToEndpoint,
            AcceptAnyServerCertificate = cosmos.AcceptAnyServerCertificate,
            Bulk = cosmos.Bulk,
            ConsistencyLevel = cosmos.ConsistencyLevel,
            GatewayMaxConnections = cosmos.GatewayMaxConnections,
            ContentResponseOnWrite = cosmos.ContentResponseOnWrite,
            CosmosCreateIfMissing = cosmos.CreateIfMissing,
            CosmosIndexing = cosmos.Indexing,
            ExcludedPaths = cosmos.ExcludedPaths.Count == 0 ? null : string.Join('\n', cosmos.ExcludedPaths),
            Throughput = cosmos.Throughput,
            CosmosRequestUnits = cosmos.RequestUnits,
            TablesConnectionStringSecret = tables.ConnectionStringSecret,
            TableName = tables.TableName,
            TableCreateIfMissing = tables.CreateIfMissing,
            SimulatorRequestUnits = sim.ProvisionedRequestUnits,
            SimulatorPartitions = sim.PhysicalPartitions,
            SimulatorIndexing = sim.Indexing,
            SimulatorMedianLatencyMs = sim.MedianLatencyMs,
            SimulatorSeed = sim.Seed,
            Shape = workload.Shape,
            Template = workload.Template,
            TargetSizeBytes = workload.TargetSizeBytes,
            CsvPath = workload.CsvPath,
            CsvFileId = workload.CsvFileId,
            PartitionKeyStrategy = workload.PartitionKey?.Strategy,
            PartitionKeyField = workload.PartitionKey?.Field,
            PartitionKeyCount = workload.PartitionKey?.KeyCount ?? 10,
            HotKeyFraction = workload.PartitionKey?.HotKeyFraction ?? 0.8,
            WorkloadSeed = workload.Seed,
            LoadModel = load.Model,
            Concurrency = load.Concurrency,
            RatePerSecond = load.RatePerSecond,
            BatchSize = load.BatchSize,
            MaxRetries = load.Throttling.MaxRetries,
            SharedBackoff = load.Throttling.SharedBackoff,
            BaseDelayMs = load.Throttling.BaseDelayMs,
            TotalDocuments = stop.TotalDocuments,
            DocumentsPerWorker = stop.DocumentsPerWorker,
            DurationSeconds = stop.DurationSeconds,
            AutoStopEnabled = stop.AutoStop is not null,
            AutoStopThrottledPercent = stop.AutoStop?.ThrottledFractionAbove * 100,
            AutoStopErrorPercent = stop.AutoStop?.ErrorFractionAbove * 100,
            AutoStopDroppedPercent = stop.AutoStop?.DroppedFractionAbove * 100,
            AutoStopWindowSeconds = stop.AutoStop?.WindowSeconds ?? 10,
            MinThroughput = plan.Thresholds?.MinThroughput,
            MaxP99LatencyMs = plan.Thresholds?.MaxP99LatencyMs,
            MaxThrottledPercent = plan.Thresholds?.MaxThrottledPercent,
            MaxDroppedPercent = plan.Thresholds?.MaxDroppedPercent,
            BaselineRunId = plan.Thresholds?.BaselineRunId,
            MinPercentOfBaseline = plan.Thresholds?.MinShareOfBaseline * 100,
        };
    }

    public RunPlan ToPlan() => new()
    {
        Name = Name.Trim(),
        Target = new TargetOptions
        {
            Kind = TargetKind,
            Operation = Operation,
            Cosmos = new CosmosOptions
            {
                Endpoint = Blank(CosmosEndpoint),
                KeySecret = SecretName(CosmosKeySecret, NewCosmosKey),
                Database = CosmosDatabase.Trim(),
                Container = CosmosContainer.Trim(),
                PartitionKeyPath = CosmosPartitionKeyPath.Trim(),
                ConnectionMode = ConnectionMode,
                LimitToEndpoint = LimitToEndpoint,
                AcceptAnyServerCertificate = AcceptAnyServerCertificate,
                Bulk = Bulk,
                ConsistencyLevel = ConsistencyLevel,
                GatewayMaxConnections = GatewayMaxConnections,
                ContentResponseOnWrite = ContentResponseOnWrite,
                CreateIfMissing = CosmosCreateIfMissing,
                Indexing = CosmosIndexing,
                ExcludedPaths = (ExcludedPaths ?? "").Split([',', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries),
                Throughput = Throughput,
                RequestUnits = CosmosRequestUnits,
            },
            Tables = new TableOptions
            {
                ConnectionStringSecret = SecretName(TablesConnectionStringSecret, NewTablesConnectionString),
                TableName = TableName.Trim(),
                CreateIfMissing = TableCreateIfMissing,
            },
            Simulator = new SimulatorOptions
            {
                ProvisionedRequestUnits = SimulatorRequestUnits,
                PhysicalPartitions = SimulatorPartitions,
                Indexing = SimulatorIndexing,
                MedianLatencyMs = SimulatorMedianLatencyMs,
                Seed = SimulatorSeed,
            },
        },
        Workload = new WorkloadOptions
        {
            Shape = Shape,
            Template = Blank(Template),
            TargetSizeBytes = TargetSizeBytes,
            CsvPath = Blank(CsvPath),
            // Only the CsvFile shape reads a file; a choice left from another shape would keep the file from being deleted.
            CsvFileId = Shape == DocumentShape.CsvFile ? CsvFileId : null,
            PartitionKey = PartitionKeyStrategy is { } strategy
                ? new PartitionKeyOptions { Strategy = strategy, Field = Blank(PartitionKeyField), KeyCount = PartitionKeyCount, HotKeyFraction = HotKeyFraction }
                : null,
            Seed = WorkloadSeed,
        },
        Load = new LoadOptions
        {
            Model = LoadModel,
            Concurrency = Concurrency,
            RatePerSecond = RatePerSecond,
            // Cosmos DB for NoSQL takes no batches: a size kept from another target is not part of its profile.
            BatchSize = TargetKind.TakesBatches() ? BatchSize : 1,
            Throttling = new ThrottleOptions { MaxRetries = MaxRetries, SharedBackoff = SharedBackoff, BaseDelayMs = BaseDelayMs },
        },
        Stop = new StopOptions
        {
            TotalDocuments = TotalDocuments,
            DocumentsPerWorker = DocumentsPerWorker,
            DurationSeconds = DurationSeconds,
            AutoStop = AutoStopEnabled
                ? new AutoStopOptions
                {
                    ThrottledFractionAbove = AutoStopThrottledPercent / 100,
                    ErrorFractionAbove = AutoStopErrorPercent / 100,
                    DroppedFractionAbove = AutoStopDroppedPercent / 100,
                    WindowSeconds = AutoStopWindowSeconds,
                }
                : null,
        },
        Thresholds = BuildThresholds(),
    };

    private ThresholdOptions? BuildThresholds()
    {
        var thresholds = new ThresholdOptions
        {
            MinThroughput = MinThroughput,
            MaxP99LatencyMs = MaxP99LatencyMs,
            MaxThrottledPercent = MaxThrottledPercent,
            MaxDroppedPercent = MaxDroppedPercent,
            BaselineRunId = BaselineRunId,
            MinShareOfBaseline = MinPercentOfBaseline / 100,
        };
        return thresholds.IsEmpty && thresholds.BaselineRunId is null ? null : thresholds;
    }

    /// <summary>The plan's validation errors, by field path (e.g. <c>Load.Concurrency</c>).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyDictionary<string, string[]> Validate(Func<long, string?> uploadedFile)
    {
        var errors = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var error in ValidateAll(uploadedFile))
        {
            var field = Translate(error.Field);
            if (!errors.TryGetValue(field, out var messages))
            {
                errors[field] = messages = [];
            }

            messages.Add(InProfileWords(error.Message));
        }

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray(), StringComparer.Ordinal);
    }

    /// <summary>The plan's rules, as a plan from the web (<see cref="WebPlanRules"/>), and the profile's own (its description).</summary>
    /// <param name="uploadedFile">An uploaded file's stored path by number (null: no such file).</param>
    public IReadOnlyList<FieldError> ValidateAll(Func<long, string?> uploadedFile)
    {
        var errors = WebPlanRules.Validate(ToPlan(), uploadedFile).ToList();
        if (Description?.Trim().Length > MaxDescriptionLength)
        {
            errors.Add(new FieldError("Description", $"At most {MaxDescriptionLength:N0} characters."));
        }

        return errors;
    }

    /// <summary>The form's property that edits the setting at a field path (<c>Load.Concurrency</c> → <c>Concurrency</c>),
    /// so that the input breaking a rule, and only it, is marked invalid; null for a rule about several settings
    /// (<c>Stop</c>: say when to stop).</summary>
    public static string? PropertyOf(string field) => Properties.GetValueOrDefault(field);

    /// <summary>A rule's message as the form says it: the engine speaks of plans, a person filling in this form is
    /// editing a profile.</summary>
    public static string InProfileWords(string message) =>
        PlanWord().Replace(message, match => match.Value.StartsWith('A') ? "A profile" : match.Value.StartsWith('a') ? "a profile" : "the profile");

    [System.Text.RegularExpressions.GeneratedRegex(@"\b([Tt]he|[Aa]) plan\b", System.Text.RegularExpressions.RegexOptions.None, 1000)]
    private static partial System.Text.RegularExpressions.Regex PlanWord();

    private static readonly Dictionary<string, string> Properties = new(StringComparer.Ordinal)
    {
        ["Name"] = nameof(Name),
        ["Description"] = nameof(Description),
        ["Target.Kind"] = nameof(TargetKind),
        ["Target.Operation"] = nameof(Operation),
        ["Target.Cosmos.Endpoint"] = nameof(CosmosEndpoint),
        ["Target.Cosmos.KeySecret"] = nameof(CosmosKeySecret),
        ["Target.Cosmos.Database"] = nameof(CosmosDatabase),
        ["Target.Cosmos.Container"] = nameof(CosmosContainer),
        ["Target.Cosmos.PartitionKeyPath"] = nameof(CosmosPartitionKeyPath),
        ["Target.Cosmos.ConnectionMode"] = nameof(ConnectionMode),
        ["Target.Cosmos.LimitToEndpoint"] = nameof(LimitToEndpoint),
        ["Target.Cosmos.AcceptAnyServerCertificate"] = nameof(AcceptAnyServerCertificate),
        ["Target.Cosmos.Bulk"] = nameof(Bulk),
        ["Target.Cosmos.ConsistencyLevel"] = nameof(ConsistencyLevel),
        ["Target.Cosmos.GatewayMaxConnections"] = nameof(GatewayMaxConnections),
        ["Target.Cosmos.ContentResponseOnWrite"] = nameof(ContentResponseOnWrite),
        ["Target.Cosmos.CreateIfMissing"] = nameof(CosmosCreateIfMissing),
        ["Target.Cosmos.Indexing"] = nameof(CosmosIndexing),
        ["Target.Cosmos.ExcludedPaths"] = nameof(ExcludedPaths),
        ["Target.Cosmos.Throughput"] = nameof(Throughput),
        ["Target.Cosmos.RequestUnits"] = nameof(CosmosRequestUnits),
        ["Target.Tables.ConnectionStringSecret"] = nameof(TablesConnectionStringSecret),
        ["Target.Tables.TableName"] = nameof(TableName),
        ["Target.Tables.CreateIfMissing"] = nameof(TableCreateIfMissing),
        ["Target.Simulator.ProvisionedRequestUnits"] = nameof(SimulatorRequestUnits),
        ["Target.Simulator.PhysicalPartitions"] = nameof(SimulatorPartitions),
        ["Target.Simulator.Indexing"] = nameof(SimulatorIndexing),
        ["Target.Simulator.MedianLatencyMs"] = nameof(SimulatorMedianLatencyMs),
        ["Target.Simulator.Seed"] = nameof(SimulatorSeed),
        ["Workload.Shape"] = nameof(Shape),
        ["Workload.Template"] = nameof(Template),
        ["Workload.TargetSizeBytes"] = nameof(TargetSizeBytes),
        ["Workload.CsvFileId"] = nameof(CsvFileId),
        ["Workload.Seed"] = nameof(WorkloadSeed),
        ["Workload.PartitionKey.Strategy"] = nameof(PartitionKeyStrategy),
        ["Workload.PartitionKey.Field"] = nameof(PartitionKeyField),
        ["Workload.PartitionKey.KeyCount"] = nameof(PartitionKeyCount),
        ["Workload.PartitionKey.HotKeyFraction"] = nameof(HotKeyFraction),
        ["Load.Model"] = nameof(LoadModel),
        ["Load.Concurrency"] = nameof(Concurrency),
        ["Load.RatePerSecond"] = nameof(RatePerSecond),
        ["Load.BatchSize"] = nameof(BatchSize),
        ["Load.Throttling.MaxRetries"] = nameof(MaxRetries),
        ["Load.Throttling.SharedBackoff"] = nameof(SharedBackoff),
        ["Load.Throttling.BaseDelayMs"] = nameof(BaseDelayMs),
        ["Stop.TotalDocuments"] = nameof(TotalDocuments),
        ["Stop.DocumentsPerWorker"] = nameof(DocumentsPerWorker),
        ["Stop.DurationSeconds"] = nameof(DurationSeconds),
        ["Stop.AutoStop"] = nameof(AutoStopEnabled),
        ["Stop.AutoStop.ThrottledPercent"] = nameof(AutoStopThrottledPercent),
        ["Stop.AutoStop.ErrorPercent"] = nameof(AutoStopErrorPercent),
        ["Stop.AutoStop.WindowSeconds"] = nameof(AutoStopWindowSeconds),
        ["Thresholds.MinThroughput"] = nameof(MinThroughput),
        ["Thresholds.MaxP99LatencyMs"] = nameof(MaxP99LatencyMs),
        ["Thresholds.MaxThrottledPercent"] = nameof(MaxThrottledPercent),
        ["Thresholds.BaselineRunId"] = nameof(BaselineRunId),
        ["Thresholds.MinPercentOfBaseline"] = nameof(MinPercentOfBaseline),
    };

    /// <summary>Auto-stop shares are percentages in the form and fractions in the plan.</summary>
    public static string Translate(string field) => field switch
    {
        "Stop.AutoStop.ThrottledFractionAbove" => "Stop.AutoStop.ThrottledPercent",
        "Stop.AutoStop.ErrorFractionAbove" => "Stop.AutoStop.ErrorPercent",
        "Stop.AutoStop.DroppedFractionAbove" => "Stop.AutoStop.DroppedPercent",
        "Thresholds.MinShareOfBaseline" => "Thresholds.MinPercentOfBaseline",
        _ => field,
    };

    private static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();

    // A secret typed into the form but not stored yet counts as named: it gets its name when saved.
    private static string SecretName(string name, string? typed) =>
        string.IsNullOrWhiteSpace(name) && !string.IsNullOrWhiteSpace(typed) ? "(stored with this profile)" : name.Trim();
}
