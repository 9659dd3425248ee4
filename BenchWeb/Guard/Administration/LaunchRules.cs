using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Guard.Security;

namespace BenchWeb.Guard.Administration;

/// <summary>What a launch must meet besides the engine's own rules: the installation's limits and its endpoint
/// allow-list. Checked by <see cref="Launch.RunService"/> (every way of launching goes through it) and shown by
/// the profile editor as the user types.</summary>
public sealed record LaunchRules(InstallationLimits Limits, IReadOnlyList<string> EndpointPatterns, bool AllowLoopbackEndpoints)
{
    /// <summary>Every setting the installation refuses, by field path.</summary>
    /// <param name="plan">The plan to launch.</param>
    /// <param name="secretEndpoints">Where the target's secrets point when known without decrypting them (read when each was
    /// stored), by field path (<see cref="Guard.Secrets.SecretStore.EndpointsAsync"/>); a secret named from the environment is bound to
    /// its server by <see cref="Guard.Secrets.SecretStore.CheckSecretNames"/>, and its connection string's endpoint is checked by
    /// the target when it connects.</param>
    /// <param name="listPatternsAtMost">How many of the allow-list's patterns a refusal lists (the profile editor's narrow
    /// fields); null lists them all, as a launch does.</param>
    public IReadOnlyList<FieldError> Check(RunPlan plan, IReadOnlyDictionary<string, Uri>? secretEndpoints = null, int? listPatternsAtMost = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var errors = Limits.Check(plan).ToList();
        var module = plan.Target.Kind.Module;
        var planned = (module as IServiceEndpoints)?.PlannedEndpoint(plan.Target);
        if (planned is not null && EndpointAllowList.Check(planned.Endpoint, EndpointPatterns, AllowLoopbackEndpoints, listPatternsAtMost) is { } refused)
        {
            errors.Add(new(planned.Field, refused));
        }

        foreach (var (field, endpoint) in secretEndpoints ?? new Dictionary<string, Uri>())
        {
            var label = module.FieldAt(field)?.Label.ToLowerInvariant() ?? "secret";
            if (EndpointAllowList.Check(endpoint, EndpointPatterns, AllowLoopbackEndpoints, listPatternsAtMost) is { } secretRefused)
            {
                errors.Add(new(field, $"The stored {label}'s {module.DisplayName} endpoint: {secretRefused}"));
            }
            else if (planned is not null && !SameServer(endpoint, planned.Endpoint))
            {
                // A key stored for one server is never sent to another: the plan's endpoint changed since it was stored.
                errors.Add(new(planned.Field, $"The stored {label} was stored for {endpoint.Authority}: store it again to use it with {planned.Endpoint.Authority}."));
            }
        }

        return errors;
    }

    private static bool SameServer(Uri a, Uri b) =>
        string.Equals(a.Scheme, b.Scheme, StringComparison.OrdinalIgnoreCase) && string.Equals(a.IdnHost, b.IdnHost, StringComparison.OrdinalIgnoreCase) && a.Port == b.Port;
}
