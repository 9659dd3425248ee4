using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>A service the engine writes to. One instance serves one run and every worker of it.</summary>
public interface IInsertTarget : IAsyncDisposable
{
    /// <summary>Human description, e.g. "Cosmos DB (SQL API) · Gateway · bulk".</summary>
    string Description { get; }

    /// <summary>True for the simulator: its figures come from a model, and the UI says so.</summary>
    bool IsModel { get; }

    /// <summary>Provisioned RU/s when known (for cost and the RU/s chart), after <see cref="InitializeAsync"/>.</summary>
    double? ProvisionedRequestUnits { get; }

    /// <summary>Connects and, when asked to, creates the database/container/table.</summary>
    Task InitializeAsync(CancellationToken cancellationToken);

    /// <summary>Writes one document, or a batch of documents sharing a partition key as one transaction.
    /// Service errors come back as an <see cref="OperationOutcome"/>, never as exceptions; only
    /// cancellation throws.</summary>
    Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken);

    /// <summary>How many documents the target holds now (to check that what was counted landed).</summary>
    Task<long> CountAsync(CancellationToken cancellationToken);
}
