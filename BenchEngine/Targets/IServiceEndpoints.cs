namespace BenchEngine.Targets;

/// <summary>
/// A capability of a <see cref="TargetModule"/>: its target connects to a service at an endpoint (every kind but the
/// simulator and the no-op target). The endpoint allow-list reads the service's hosts and the endpoint a plan or a secret
/// names from it; the audit log records the endpoint's host; secrets are bound to it.
/// </summary>
public interface IServiceEndpoints
{
    /// <summary>The hosts of the service in Azure's clouds, as allow-list patterns (<c>*.documents.azure.com</c>): what an
    /// installation allows until its administrator says otherwise.</summary>
    IReadOnlyList<string> ServiceHostPatterns { get; }

    /// <summary>The endpoint the plan names in its own settings (not in a secret), with the field that names it; null when
    /// none (the endpoint is in a connection string).</summary>
    TargetEndpoint? PlannedEndpoint(TargetOptions options) => null;

    /// <summary>Where a secret's value points (a connection string's endpoint: scheme, host and port), read without keeping any
    /// of it; null when it names none (an account key). The endpoint allow-list and the audit log use it.</summary>
    /// <param name="field">The secret's field.</param>
    /// <param name="value">The secret's value.</param>
    Uri? EndpointOfSecret(TargetField field, string value) => null;
}

/// <summary>An endpoint a plan names, and the field that names it (where an error about it belongs).</summary>
public sealed record TargetEndpoint(string Field, Uri Endpoint);
