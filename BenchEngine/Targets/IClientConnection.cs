namespace BenchEngine.Targets;

/// <summary>
/// A capability of a <see cref="TargetModule"/>: its client has a way of connecting worth a column of the results table
/// (Cosmos DB's Direct or Gateway mode and its bulk mode, Redis with or without TLS). A kind without it shows nothing there.
/// </summary>
public interface IClientConnection
{
    /// <summary>How the client connects, for the results table's connection column ("Direct", "Gateway", "TLS").</summary>
    string ConnectionText(TargetOptions options);

    /// <summary>Whether the client groups concurrent writes itself (Cosmos DB's bulk mode), for the results table; null: no
    /// such mode.</summary>
    bool? ClientGroupsWrites(TargetOptions options) => null;
}
