using BenchEngine.Running;
using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>
/// How fast the simulated Cosmos DB will take a plan, worked out from its model before the plan runs: what a document costs
/// (its size and indexing, charged as <see cref="SimulatedCosmosTarget"/> charges it), the budget of the partitions, and how
/// many requests the load keeps in flight at the model's latency. An estimate of the model, never of a real service: where no
/// measured rate is known, it is what says how long a plan's simulated run will take.
/// </summary>
/// <remarks>
/// The rate is the lower of two ceilings. The budget: provisioned RU/s over RU per document, with the keys spread evenly over
/// the partitions (a throttle pauses every worker until the budget refills, so a spent budget is the rate). The round trips: a
/// closed loop's workers each send a request per mean latency; a wave waits for the slowest of its requests; an open loop sends
/// at its own rate; every write at once waits for nothing. Documents are sampled from the workload's own seed on a fixed
/// clock, so the same plan always gets the same estimate.
/// </remarks>
public sealed record SimulatorEstimate
{
    // Enough documents for a steady mean of sizes that vary (text of random length, padding).
    private const int SampleSize = 200;

    private static readonly DateTimeOffset SampleTime = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    /// <summary>The mean RU the model charges for one document of the workload.</summary>
    public required double RequestUnitsPerDocument { get; init; }

    /// <summary>Documents per second the model will take; 0 when a request costs more than a partition's budget for a
    /// whole second, so every attempt is throttled and nothing lands.</summary>
    public required double DocumentsPerSecond { get; init; }

    /// <summary>Whether the RU budget, rather than the round trips, sets the rate.</summary>
    public required bool BudgetBound { get; init; }

    /// <summary>The estimate for a plan on the simulator; null when only a run can tell what its documents cost (the rows
    /// of a CSV file).</summary>
    /// <exception cref="ArgumentException">The plan is not for the simulator: estimate its simulated twin.</exception>
    public static SimulatorEstimate? Of(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (plan.Target.Kind != TargetKind.Simulated)
        {
            throw new ArgumentException("Only a plan for the simulated Cosmos DB has the model's estimate.", nameof(plan));
        }

        if (plan.Workload.Shape == DocumentShape.CsvFile)
        {
            return null;
        }

        var simulator = plan.Target.Simulator;
        var perDocument = MeanCharge(plan.Workload, simulator.Indexing, (int)Math.Min(SampleSize, plan.DocumentLimit ?? SampleSize));
        var load = plan.Load;
        var partitions = simulator.PhysicalPartitions
            ?? Math.Max(1, (int)Math.Ceiling(simulator.ProvisionedRequestUnits / (double)SimulatedCosmosTarget.RequestUnitsPerPartition));
        var partitionBudget = simulator.ProvisionedRequestUnits / (double)partitions;
        var budget = perDocument * load.BatchSize > partitionBudget ? 0 : simulator.ProvisionedRequestUnits / perDocument;
        var roundTrips = RoundTripCeiling(load, simulator.MedianLatencyMs / 1_000);
        return new SimulatorEstimate
        {
            RequestUnitsPerDocument = perDocument,
            DocumentsPerSecond = Math.Min(budget, roundTrips),
            BudgetBound = budget <= roundTrips,
        };
    }

    /// <summary>The expected time of the slowest of <paramref name="count"/> writes, as a multiple of the median latency:
    /// E[e^(σ·max Z)] of <paramref name="count"/> standard normals, integrated numerically (1 for one write is the mean's
    /// e^(σ²/2), a little above the median).</summary>
    internal static double SlowestOf(int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        const double From = -8, To = 8, Step = 0.005;
        var steps = (int)((To - From) / Step);

        // Φ on the grid by the trapezoid rule, normalised so that it ends at 1.
        var cdf = new double[steps + 1];
        for (var i = 1; i <= steps; i++)
        {
            cdf[i] = cdf[i - 1] + ((Density(From + ((i - 1) * Step)) + Density(From + (i * Step))) * Step / 2);
        }

        double expected = 0;
        for (var i = 0; i < steps; i++)
        {
            // P(the slowest lands in this step) × e^(σ·the step's middle).
            var probability = Math.Pow(cdf[i + 1] / cdf[steps], count) - Math.Pow(cdf[i] / cdf[steps], count);
            expected += probability * Math.Exp(SimulatedCosmosTarget.LatencySpread * (From + ((i + 0.5) * Step)));
        }

        return expected;
    }

    private static double Density(double x) => Math.Exp(-x * x / 2) / Math.Sqrt(2 * Math.PI);

    private static double RoundTripCeiling(LoadOptions load, double medianSeconds)
    {
        var mean = medianSeconds * Math.Exp(SimulatedCosmosTarget.LatencySpread * SimulatedCosmosTarget.LatencySpread / 2);
        var closedLoop = load.Concurrency * load.BatchSize / mean;
        return load.Model switch
        {
            LoadModel.OpenLoop => Math.Min((load.RatePerSecond ?? 0) * load.BatchSize, closedLoop),
            LoadModel.Waves => load.Concurrency * load.BatchSize / (medianSeconds * SlowestOf(load.Concurrency)),
            LoadModel.Unbounded => double.PositiveInfinity,
            _ => closedLoop,
        };
    }

    private static double MeanCharge(WorkloadOptions workload, IndexingMode indexing, int count)
    {
        using var source = DocumentSourceFactory.Create(workload, new FixedClock());
        double total = 0;
        var sampled = 0;
        while (sampled < Math.Max(1, count) && source.TryNext(out var document))
        {
            total += SimulatedCosmosTarget.Charge(document, indexing);
            sampled++;
        }

        return sampled == 0 ? 0 : total / sampled;
    }

    // Time fields of the sampled documents read this instant: the same plan gets the same sizes whenever it is estimated.
    private sealed class FixedClock : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => SampleTime;
    }
}
