using BenchWeb.Data;

namespace BenchWeb.Live;

/// <summary>What the live feed carries (<see cref="LiveFeed"/>), each event under the topic its watchers follow: a run's
/// saved seconds and status changes, one agent's own seconds of a run spread over agents, a sweep's progress, the agents'
/// heartbeats.</summary>
public abstract record LiveEvent
{
    /// <summary>Who follows it: <see cref="LiveTopic.Run"/>, <see cref="LiveTopic.Sweep"/> or <see cref="LiveTopic.Agents"/>.</summary>
    public abstract string Topic { get; }

    /// <summary>A second topic it is handed to as well: <see cref="LiveTopic.Queue"/> for what moves the queue.</summary>
    public virtual string? AlsoTopic => null;
}

/// <summary>The topics of the live feed.</summary>
public static class LiveTopic
{
    public const string Agents = "agents";

    /// <summary>Every run's and sweep's status changes: what moves a queued run up the line.</summary>
    public const string Queue = "queue";

    public static string Run(long runId) => $"run:{runId}";

    public static string Sweep(long sweepId) => $"sweep:{sweepId}";
}

/// <summary>A second of the run as it was saved.</summary>
public sealed record SecondSaved(RunSecondEntity Second) : LiveEvent
{
    public override string Topic => LiveTopic.Run(Second.RunId);
}

/// <summary>The run changed status (queued, started, ended, cancel asked): watchers read its row again.</summary>
public sealed record StatusChanged(RunStatusChange Change) : LiveEvent
{
    public override string Topic => LiveTopic.Run(Change.RunId);

    public override string? AlsoTopic => LiveTopic.Queue;
}

/// <summary>Slow requests one shard of the run kept (0 for a run on one agent), as saved, and the numbers of those it let go
/// to make room for slower ones: the run page's panel follows them without reading the database.</summary>
public sealed record SlowRequestsSaved(long RunId, int Shard, IReadOnlyList<RunDiagnosticEntity> Added, IReadOnlyList<int> Removed) : LiveEvent
{
    public override string Topic => LiveTopic.Run(RunId);
}

/// <summary>One agent's second of a run spread over agents.</summary>
public sealed record ShardSecondSaved(ShardSecond Second) : LiveEvent
{
    public override string Topic => LiveTopic.Run(Second.RunId);
}

/// <summary>A sweep moved on (started, a step launched or ended, its knees judged, ended): watchers read it again.</summary>
public sealed record SweepChanged(long SweepId) : LiveEvent
{
    public override string Topic => LiveTopic.Sweep(SweepId);

    public override string? AlsoTopic => LiveTopic.Queue;
}

/// <summary>An agent joined, beat or left: the agents' list is read again.</summary>
public sealed record AgentsChanged : LiveEvent
{
    public override string Topic => LiveTopic.Agents;
}
