using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Security;

namespace BenchWeb.Administration;

/// <summary>What a launch must meet besides the engine's own rules: the installation's limits and its endpoint
/// allow-list. Checked by <see cref="Runs.RunService.StartAsync"/> (every way of launching goes through it) and shown by
/// the profile editor as the user types.</summary>
public sealed record LaunchRules(InstallationLimits Limits, IReadOnlyList<string> EndpointPatterns, bool AllowLoopbackEndpoints)
{
    /// <summary>Every setting the installation refuses, by field path.</summary>
    /// <param name="plan">The plan to launch.</param>
    /// <param name="tableEndpoint">A table target's endpoint when known without decrypting its connection string (read
    /// when the string was stored); a string named from the environment is checked by the target when it connects.</param>
    public IReadOnlyList<FieldError> Check(RunPlan plan, Uri? tableEndpoint = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var errors = Limits.Check(plan).ToList();
        var target = plan.Target;
        if (target.Kind == TargetKind.CosmosSql && Uri.TryCreate(target.Cosmos.Endpoint, UriKind.Absolute, out var cosmos)
            && EndpointAllowList.Check(cosmos, EndpointPatterns, AllowLoopbackEndpoints) is { } refused)
        {
            errors.Add(new("Target.Cosmos.Endpoint", refused));
        }

        if (target.Kind is TargetKind.TableStorage or TargetKind.CosmosTable && tableEndpoint is not null
            && EndpointAllowList.Check(tableEndpoint, EndpointPatterns, AllowLoopbackEndpoints) is { } tableRefused)
        {
            errors.Add(new("Target.Tables.ConnectionStringSecret", $"The stored connection string's table endpoint: {tableRefused}"));
        }

        return errors;
    }
}
