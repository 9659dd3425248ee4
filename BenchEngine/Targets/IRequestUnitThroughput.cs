namespace BenchEngine.Targets;

/// <summary>
/// A capability of a <see cref="TargetModule"/>: its service sells throughput in request units (Cosmos DB, its Table API,
/// and the simulator, which models Cosmos DB). Every response carries its charge in request units, so a run's RU figures
/// are figures; a kind whose module does not implement this shows them as "n/a", never as 0
/// (<see cref="TargetNames.ReportsRequestUnits"/>).
/// </summary>
/// <remarks>The plan's throughput settings are read through it: the installation's limit on what a run may provision, a
/// comparison's cost of a model's run, and the simulated twin of a preset.</remarks>
public interface IRequestUnitThroughput
{
    /// <summary>The throughput a run would buy: what it provisions on a real service when it creates its container (the
    /// installation's limit applies to it), with the field that sets it; null when it provisions nothing (a model, an
    /// existing container).</summary>
    ProvisionedThroughput? ProvisionsOnCreate(TargetOptions options) => null;

    /// <summary>The throughput the plan provisions, when it says (for comparisons and the preset's simulated twin).</summary>
    double? PlannedRequestUnits(TargetOptions options) => null;

    /// <summary>How the plan indexes a container it creates, when it says (the preset's simulated twin uses it).</summary>
    IndexingMode? PlannedIndexing(TargetOptions options) => null;
}

/// <summary>Request units per second a run provisions, and the field that sets them.</summary>
public sealed record ProvisionedThroughput(string Field, double RequestUnits);
