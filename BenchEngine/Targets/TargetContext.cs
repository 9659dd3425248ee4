namespace BenchEngine.Targets;

/// <summary>What a target needs from its host: the clock, the secrets and which endpoints it may reach.</summary>
/// <param name="Time">The clock (fake in tests).</param>
/// <param name="ResolveSecret">Looks a secret up by name; null when not set.</param>
public sealed record TargetContext(TimeProvider Time, Func<string, string?> ResolveSecret)
{
    /// <summary>Which endpoints the target may connect to; the scheme rule alone unless the host says more.</summary>
    public EndpointPolicy Endpoints { get; init; } = EndpointPolicy.Default;

    /// <summary>When set, the run's clock starts at this instant (once its target is open), not at once: the shards of a
    /// run spread over agents start together, so their seconds are the same wall-clock seconds. An instant already past
    /// starts the run at once.</summary>
    public DateTimeOffset? StartAt { get; init; }

    /// <summary>Tags for the run's measurements (<see cref="Metrics.EngineTelemetry"/>): which run, from which client; none
    /// unless the host says. Targets do not read it.</summary>
    public Metrics.EngineTelemetryTags? Telemetry { get; init; }

    /// <summary>Secrets from environment variables: what a headless run uses.</summary>
    public static TargetContext FromEnvironment(TimeProvider? time = null) =>
        new(time ?? TimeProvider.System, Environment.GetEnvironmentVariable);

    /// <summary>The secret's value, or a clear error naming the missing secret (never its value).</summary>
    public string RequireSecret(string name) =>
        ResolveSecret(name) is { Length: > 0 } value
            ? value
            : throw new TargetConfigurationException($"The secret '{name}' is not set. Set it (environment variable for headless runs, or the dashboard's target settings) and run again.");
}
