using BenchEngine.Diagnostics;
using BenchEngine.Metrics;

namespace BenchEngine.Running;

/// <summary>Receives a run's seconds as they close. The engine's only way out: the dashboard saves and
/// pushes them, the headless command prints them. Called from one task, in order.</summary>
public interface IRunObserver
{
    /// <summary>The run started; the target is open.</summary>
    ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken);

    /// <summary>The run's clock started: after any wait for a common start (<see cref="Targets.TargetContext.StartAt"/>), and
    /// <paramref name="joinedLateSeconds"/> whole seconds after it (0 without one, or on time), so that the run's second i is
    /// second i + <paramref name="joinedLateSeconds"/> of the common run. Called once, before the first second, from the task
    /// that delivers the seconds: a wait that ended late (a busy or suspended process) is counted here, not guessed from when
    /// <see cref="OnStartedAsync"/> ran.</summary>
    ValueTask OnClockStartedAsync(int joinedLateSeconds, CancellationToken cancellationToken) => ValueTask.CompletedTask;

    /// <summary>One second closed. A slow observer delays the next call, never the load.</summary>
    ValueTask OnSecondAsync(SecondSnapshot second, CancellationToken cancellationToken);

    /// <summary>The second just delivered changed the run's slow requests (<see cref="DiagnosticsOptions"/>): entries added,
    /// and faster ones pushed out of the run's bounds. Called after <see cref="OnSecondAsync"/>, only when something changed.
    /// A failure here is the observer's own: it never stops the run.</summary>
    ValueTask OnSlowRequestsAsync(SlowRequestChange change, CancellationToken cancellationToken) => ValueTask.CompletedTask;
}

/// <summary>What is known when a run starts.</summary>
public sealed record RunStart(string TargetDescription, bool TargetIsModel, double? ProvisionedRequestUnits, ClientEnvironment Environment, DateTimeOffset StartedAt)
{
    /// <summary><see cref="ProvisionedRequestUnits"/> is an autoscale maximum.</summary>
    public bool ProvisionedAutoscale { get; init; }

    /// <summary>Whether the target reports request units (Table Storage does not).</summary>
    public bool RequestUnitsReported { get; init; } = true;

    /// <summary>Open loop: the rate offered, requests/s.</summary>
    public double? OfferedRequestsPerSecond { get; init; }
}
