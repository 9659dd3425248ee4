namespace BenchWeb.Data;

/// <summary>A stored plan and what keeps it: a profile, or a run.</summary>
/// <param name="Id">The profile's or the run's id.</param>
/// <param name="Name">The profile's name, or the run's.</param>
/// <param name="PlanJson">The plan as stored.</param>
public sealed record PlanHolder(long Id, string Name, string PlanJson);

/// <summary>The saved profiles whose plan mentions <paramref name="text"/> (a property of the plan's JSON): the profiles' read
/// side (<c>ProfileReader.PlansMentioningAsync</c>), for the parts below it that guard what a plan names (an uploaded file).</summary>
public delegate Task<IReadOnlyList<PlanHolder>> ProfilePlansReader(string text, CancellationToken cancellationToken);

/// <summary>The runs queued or running whose plan mentions <paramref name="text"/>: the runs' read side
/// (<c>RunReader.PendingPlansMentioningAsync</c>), for the parts below it that guard what a run still needs.</summary>
public delegate Task<IReadOnlyList<PlanHolder>> PendingRunPlansReader(string text, CancellationToken cancellationToken);

/// <summary>How many runs each of <paramref name="agentIds"/> executes on its own now (a run spread over agents counts as its
/// shards, which the fleet keeps): the runs' read side (<c>RunReader.RunningPerAgentAsync</c>), for the fleet's directory.</summary>
public delegate Task<IReadOnlyDictionary<string, int>> RunningRunsPerAgentReader(IReadOnlyCollection<string> agentIds, CancellationToken cancellationToken);

/// <summary>How a run ended, as far as a verdict that compares with it needs: its status and its average throughput.</summary>
/// <param name="Status">Queued, running, completed, failed…</param>
/// <param name="AverageThroughput">Documents per second over the run; null when it measured none.</param>
public sealed record RunOutcome(BenchEngine.Running.RunStatus Status, double? AverageThroughput);

/// <summary>How run <paramref name="runId"/> ended, or null when there is no such run: the runs' read side
/// (<c>RunReader.OutcomeAsync</c>), for the parts below it that check a plan's baseline run.</summary>
public delegate Task<RunOutcome?> RunOutcomeReader(long runId, CancellationToken cancellationToken);
