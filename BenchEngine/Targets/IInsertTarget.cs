using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>A service the engine writes to. One instance serves one run and every worker of it.</summary>
public interface IInsertTarget : IAsyncDisposable
{
    /// <summary>Human description, e.g. "Cosmos DB (SQL API) · Gateway · bulk".</summary>
    string Description { get; }

    /// <summary>True for the simulator: its figures come from a model, and the UI says so.</summary>
    bool IsModel { get; }

    /// <summary>Provisioned RU/s when known (for cost and the RU/s chart), after <see cref="InitializeAsync"/>; for autoscale,
    /// the maximum. Null when the throughput could not be read: nothing is priced then.</summary>
    double? ProvisionedRequestUnits { get; }

    /// <summary>Whether <see cref="ProvisionedRequestUnits"/> is an autoscale maximum (billed differently), after
    /// <see cref="InitializeAsync"/>.</summary>
    bool ProvisionedAutoscale => false;

    /// <summary>Whether the service reports a request-unit charge. Table Storage has no request units: its RU figures are
    /// "n/a", not 0.</summary>
    bool ReportsRequestUnits => true;

    /// <summary>Connects and, when asked to, creates the database/container/table.</summary>
    Task InitializeAsync(CancellationToken cancellationToken);

    /// <summary>The run's clock starts now (<paramref name="startTimestamp"/>, a <see cref="TimeProvider"/> timestamp of the
    /// run's clock). A target whose behaviour follows seconds (the simulator's RU budget) aligns them with the run's.</summary>
    void RunClockStarted(long startTimestamp)
    {
    }

    /// <summary>The size in bytes of the request body this target sends for <paramref name="document"/> written alone, with
    /// every property the target itself adds (a partition-key property, table keys and type annotations): padding fills
    /// documents up to the requested size as sent.</summary>
    int MeasureRequestBytes(Document document) => DocumentJson.Measure(document);

    /// <summary>Writes one document, or a batch of documents sharing a partition key as one transaction.
    /// Service errors come back as an <see cref="OperationOutcome"/>, never as exceptions; only
    /// cancellation throws.</summary>
    Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken);

    /// <summary>Describes one of the run's slowest requests from what its outcome kept (<see cref="OperationOutcome.Diagnostics"/>).
    /// Called off the load's path, once a second has closed, only for the few requests kept; it must not send anything. The
    /// engine removes credentials from what it returns and bounds its length.</summary>
    RequestDescription DescribeRequest(in SlowRequestFacts request) =>
        RequestDescription.Plain(request, "This target keeps no diagnostics of its requests.");

    /// <summary>How many documents the target holds now (to check that what was counted landed).</summary>
    Task<long> CountAsync(CancellationToken cancellationToken);
}
