namespace BenchEngine.Presets;

/// <summary>
/// The study a preset comes from: the seed experiments asked a few questions, each over several runs (their ids start with
/// its letter in the design notes), and the storage services' comparison tables add rows of their own. Lists group and filter
/// presets by it.
/// </summary>
/// <param name="Ids">How the study's preset ids start, e.g. <c>G</c>, so a reader finds the study in the design notes.</param>
/// <param name="Name">What the study asked, in words.</param>
public sealed record PresetStudy(string Ids, string Name)
{
    /// <summary>The G runs: Gateway or Direct mode, workers, cores and RU/s of a client upserting small documents.</summary>
    public static PresetStudy ClientTuning { get; } = new("G", "Client tuning: connection mode, workers and RU/s");

    /// <summary>The L runs: the seed-000 loader's batches of 100 flights into tables.</summary>
    public static PresetStudy FlightLoader { get; } = new("L", "Flight loader: batches of 100 into tables");

    /// <summary>The T sweep: how big an entity-group transaction should be.</summary>
    public static PresetStudy TableBatches { get; } = new("T", "Table batches: batch size 1 to 100");

    /// <summary>The J runs: latency at a steady rate and the per-second throughput of a closed loop.</summary>
    public static PresetStudy Latency { get; } = new("J", "Latency and per-second throughput");

    /// <summary>The B runs: concurrent point inserts against the SDK's bulk mode.</summary>
    public static PresetStudy Bulk { get; } = new("B", "Point inserts against bulk mode");

    /// <summary>Rows of the storage services' comparison tables, with no published figure of their own.</summary>
    public static PresetStudy ComparisonTables { get; } = new("BL, Q, RD", "Comparison tables of the storage services");

    /// <summary>Every study, in the order of the design notes.</summary>
    public static IReadOnlyList<PresetStudy> All { get; } = [ClientTuning, FlightLoader, TableBatches, Latency, Bulk, ComparisonTables];

    /// <summary>"Client tuning: connection mode, workers and RU/s (G)".</summary>
    public override string ToString() => $"{Name} ({Ids})";
}
