namespace BenchEngine.Targets;

/// <summary>The names people use for each kind of target. Every page, table, export and message that names a kind
/// takes it from here (the profile form's choices, the run list, results, comparisons, the targets' own descriptions),
/// so the enum's identifiers (<c>CosmosSql</c>) never reach a reader and a kind is called the same everywhere.</summary>
public static class TargetNames
{
    /// <summary>"Cosmos DB (SQL API)", "Table Storage", "Cosmos DB Table API", "Simulated Cosmos DB" or "No-op".</summary>
    public static string DisplayName(this TargetKind kind) => kind switch
    {
        TargetKind.Simulated => "Simulated Cosmos DB",
        TargetKind.CosmosSql => "Cosmos DB (SQL API)",
        TargetKind.TableStorage => "Table Storage",
        TargetKind.CosmosTable => "Cosmos DB Table API",
        TargetKind.NoOp => "No-op",
        _ => "Unknown target",
    };

    /// <summary>Whether one request can carry a batch of documents (an entity-group transaction, or the simulator's and
    /// the no-op's model of one). Cosmos DB for NoSQL writes a document per request here; its bulk mode groups them in
    /// the SDK.</summary>
    public static bool TakesBatches(this TargetKind kind) => kind != TargetKind.CosmosSql;

    /// <summary>Whether the kind's responses carry request units (as its target's <c>ReportsRequestUnits</c> says): runs
    /// stored before their summary recorded it are told by their kind, so Table Storage and the no-op show "n/a", never 0.</summary>
    public static bool ReportsRequestUnits(this TargetKind kind) => kind is not (TargetKind.TableStorage or TargetKind.NoOp);
}
