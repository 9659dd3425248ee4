namespace BenchEngine.Targets;

/// <summary>What every page, table, export and message says about a kind, taken from its module, so the kind's name
/// (<c>CosmosSql</c>) never reaches a reader and a kind is called the same everywhere.</summary>
public static class TargetNames
{
    /// <summary>"Cosmos DB (SQL API)", "Table Storage", "Simulated Cosmos DB", "Azure Cache for Redis"…</summary>
    public static string DisplayName(this TargetKind kind) => kind.Module.DisplayName;

    /// <summary>Whether one request can carry a batch of documents (see <see cref="TargetModule.MaxBatchSize"/>).</summary>
    public static bool TakesBatches(this TargetKind kind) => kind.Module.MaxBatchSize > 1;

    /// <summary>Whether the kind's responses carry request units: its module sells throughput in request units
    /// (<see cref="IRequestUnitThroughput"/>), as its target's <c>ReportsRequestUnits</c> says. Runs stored before their
    /// summary recorded it are told by their kind, so Table Storage and the no-op show "n/a", never 0.</summary>
    public static bool ReportsRequestUnits(this TargetKind kind) => kind.Module is IRequestUnitThroughput;
}
