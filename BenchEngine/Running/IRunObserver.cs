using BenchEngine.Diagnostics;
using BenchEngine.Metrics;

namespace BenchEngine.Running;

/// <summary>Receives a run's seconds as they close. The engine's only way out: the dashboard saves and
/// pushes them, the headless command prints them. Called from one task, in order.</summary>
public interface IRunObserver
{
    /// <summary>The run started; the target is open.</summary>
    ValueTask OnStartedAsync(RunStart start, CancellationToken cancellationToken);

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
