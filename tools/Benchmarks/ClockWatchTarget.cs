using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace Benchmarks;

/// <summary>A target as it is, that also notes when the run's clock started (a <see cref="TimeProvider.System"/> timestamp):
/// the clock benchmark measures the run's wall-clock length from that instant.</summary>
internal sealed class ClockWatchTarget(IInsertTarget inner) : IInsertTarget
{
    public long ClockStart { get; private set; }

    public string Description => inner.Description;

    public bool IsModel => inner.IsModel;

    public double? ProvisionedRequestUnits => inner.ProvisionedRequestUnits;

    public bool ProvisionedAutoscale => inner.ProvisionedAutoscale;

    public bool ReportsRequestUnits => inner.ReportsRequestUnits;

    public Task InitializeAsync(CancellationToken cancellationToken) => inner.InitializeAsync(cancellationToken);

    public void RunClockStarted(long startTimestamp)
    {
        ClockStart = startTimestamp;
        inner.RunClockStarted(startTimestamp);
    }

    public int MeasureRequestBytes(Document document) => inner.MeasureRequestBytes(document);

    public Task<OperationOutcome> WriteAsync(IReadOnlyList<Document> documents, WriteOperation operation, CancellationToken cancellationToken) =>
        inner.WriteAsync(documents, operation, cancellationToken);

    public Task<long> CountAsync(CancellationToken cancellationToken) => inner.CountAsync(cancellationToken);

    public ValueTask DisposeAsync() => inner.DisposeAsync();
}
