using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// A model of Cosmos DB, in process, so the dashboard works without an account. Its figures are
/// computed, not measured: the UI labels them so.
/// </summary>
/// <remarks>
/// Physics, from the service's documentation: provisioned RU/s are split evenly over physical partitions
/// of at most 10,000 RU/s each; each partition has a budget per second; a write costs ≈5 RU per KB
/// (at least 1 KB) plus ≈0.2 RU per indexed property; a write that does not fit the partition's remaining
/// budget gets 429 with a retry-after to the next second; a successful write takes a lognormal latency.
/// </remarks>
internal sealed class SimulatedCosmosTarget : IInsertTarget
{
    /// <summary>Largest throughput one physical partition serves.</summary>
    public const int RequestUnitsPerPartition = 10_000;

    private const double RequestUnitsPerKilobyte = 5;
    private const double RequestUnitsPerIndexedTerm = 0.2;

    /// <summary>The σ of the lognormal latency: a write takes the median latency × e^(σ·Z).</summary>
    internal const double LatencySpread = 0.35;
    private static readonly TimeSpan ThrottleLatency = TimeSpan.FromMilliseconds(1);

    private readonly SimulatorOptions _options;
    private readonly TimeProvider _time;
    private readonly Partition[] _partitions;
    private long _startTimestamp;
    private readonly Random _random;
    private readonly Lock _randomGate = new();

    public SimulatedCosmosTarget(SimulatorOptions options, TimeProvider time)
    {
        _options = options;
        _time = time;
        var count = options.PhysicalPartitions ?? Math.Max(1, (int)Math.Ceiling(options.ProvisionedRequestUnits / (double)RequestUnitsPerPartition));
        var budget = options.ProvisionedRequestUnits / (double)count / Math.Max(1, options.Shards ?? 1);
        _partitions = Enumerable.Range(0, count).Select(_ => new Partition(budget)).ToArray();
        _startTimestamp = time.GetTimestamp();
        _random = new Random(options.Seed);
        Description = $"{TargetKind.Simulated.DisplayName()} (model) · {options.ProvisionedRequestUnits:N0} RU/s · {count} partition{(count == 1 ? "" : "s")}";
    }

    public string Description { get; }

    public bool IsModel => true;

    public double? ProvisionedRequestUnits => _options.ProvisionedRequestUnits;

    public int PartitionCount => _partitions.Length;

    public Task InitializeAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>The budget's one-second windows start with the run's own seconds: a window that straddled two of the run's
    /// seconds would let one of them consume up to twice the provisioned RU.</summary>
    public void RunClockStarted(long startTimestamp) => Interlocked.Exchange(ref _startTimestamp, startTimestamp);

    /// <summary>The RU a write of <paramref name="document"/> costs under this model.</summary>
    public double ChargeFor(Document document) => Charge(document, _options.Indexing);

    /// <summary>The RU a write of <paramref name="document"/> costs under this model with <paramref name="indexing"/>.</summary>
    internal static double Charge(Document document, IndexingMode indexing) =>
        Charge(DocumentJson.Measure(document), document.Fields.Count, indexing);

    public async Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        double charge = 0;
        long bytes = 0;
        foreach (var document in documents)
        {
            var size = DocumentJson.Measure(document);
            bytes += size;
            charge += Charge(size, document.Fields.Count, _options.Indexing);
        }

        var partition = _partitions[(int)((uint)StringComparer.Ordinal.GetHashCode(documents[0].PartitionKey) % (uint)_partitions.Length)];
        var elapsed = _time.GetElapsedTime(Interlocked.Read(ref _startTimestamp));
        var window = (long)Math.Floor(elapsed.TotalSeconds);
        if (!partition.TrySpend(window, charge, documents.Count))
        {
            var retryAfter = TimeSpan.FromSeconds(window + 1) - elapsed;
            await Task.Delay(ThrottleLatency, _time, cancellationToken).ConfigureAwait(false);
            return OperationOutcome.Throttled(429, 0, retryAfter);
        }

        await Task.Delay(NextLatency(), _time, cancellationToken).ConfigureAwait(false);
        return OperationOutcome.Ok(201, documents.Count, charge, bytes);
    }

    /// <summary>A line saying so: no request was sent, and the latency is the model's draw, not a measurement.</summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request) => RequestDescription.Plain(request,
        $"Simulated: a model of Cosmos DB in this process, no request was sent and there are no SDK diagnostics; the latency is the model's draw (median {_options.MedianLatencyMs:N1} ms) plus the engine's retries.");

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        Task.FromResult(_partitions.Sum(p => p.Documents));

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private static double Charge(int sizeBytes, int fieldCount, IndexingMode indexing)
    {
        // Every property and the id are indexed under consistent indexing.
        var indexedTerms = indexing == IndexingMode.None ? 0 : fieldCount + 1;
        return (RequestUnitsPerKilobyte * Math.Max(1.0, sizeBytes / 1024.0)) + (RequestUnitsPerIndexedTerm * indexedTerms);
    }

    /// <summary>A write's latency as a multiple of the median: e^(σ·Z), Z standard normal drawn from <paramref name="random"/>.</summary>
    internal static double LatencyFactor(Random random)
    {
        // Box–Muller: a standard normal from two uniforms.
        var gaussian = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
        return Math.Exp(LatencySpread * gaussian);
    }

    private TimeSpan NextLatency()
    {
        double factor;
        lock (_randomGate)
        {
            factor = LatencyFactor(_random);
        }

        return TimeSpan.FromMilliseconds(_options.MedianLatencyMs * factor);
    }

    private sealed class Partition(double budgetPerSecond)
    {
        private readonly Lock _gate = new();
        private long _window = -1;
        private double _spent;
        private long _documents;

        public long Documents => Interlocked.Read(ref _documents);

        public bool TrySpend(long window, double charge, int documents)
        {
            lock (_gate)
            {
                if (window != _window)
                {
                    _window = window;
                    _spent = 0;
                }

                if (_spent + charge > budgetPerSecond)
                {
                    return false;
                }

                _spent += charge;
                _documents += documents;
                return true;
            }
        }
    }
}
