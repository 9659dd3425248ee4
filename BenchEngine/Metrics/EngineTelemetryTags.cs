namespace BenchEngine.Metrics;

/// <summary>What a host says about a run, carried as tags on every measurement of <see cref="EngineTelemetry"/>: which run,
/// from which client, which shard of it, against which kind of target.</summary>
/// <param name="RunId">The host's name for the run (the dashboard's run number).</param>
/// <param name="Agent">The client instance that runs it (a machine or App Service instance name).</param>
/// <param name="ShardIndex">Which part of a run split across clients this is; 0 for a run on one client.</param>
/// <param name="TargetKind">The plan's target kind, as its module names it.</param>
public sealed record EngineTelemetryTags(string RunId, string Agent, int ShardIndex, string TargetKind);
