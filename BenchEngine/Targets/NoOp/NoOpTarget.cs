using BenchEngine.Workloads;

namespace BenchEngine.Targets;

/// <summary>Accepts every write at once and keeps nothing: measures the client side alone
/// (generation, pacing, metrics), and memory use over long runs.</summary>
internal sealed class NoOpTarget : IInsertTarget
{
    // The answer to a single document, made once: the engine's own cost per request, not a task's, is what this target shows.
    private static readonly Task<OperationOutcome> OneWritten = Task.FromResult(OperationOutcome.Ok(201, 1, 0, 0));

    private long _documents;

    public string Description => $"{TargetKind.NoOp.DisplayName()} (client only, nothing is written)";

    public bool IsModel => true;

    public double? ProvisionedRequestUnits => null;

    public bool ReportsRequestUnits => false;

    public Task InitializeAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken)
    {
        Interlocked.Add(ref _documents, documents.Count);
        return documents.Count == 1 ? OneWritten : Task.FromResult(OperationOutcome.Ok(201, documents.Count, 0, 0));
    }

    /// <summary>A line saying so: nothing was sent; a slow request here is the client's own time (a pause, a collection).</summary>
    public RequestDescription DescribeRequest(in SlowRequestFacts request) => RequestDescription.Plain(request,
        "No-op target: nothing was sent (client only), so there are no SDK diagnostics; a slow request here is the client's own time.");

    public Task<long> CountAsync(CancellationToken cancellationToken) => Task.FromResult(Interlocked.Read(ref _documents));

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
