namespace BenchWeb.Compare;

/// <summary>One setting or client environment value that differs between runs.</summary>
/// <param name="Path">Where it sits, e.g. <c>target.cosmos.connectionMode</c> or <c>environment.processorCount</c>.</param>
/// <param name="Group">The section it belongs to, as the profile editor names it ("Target", "Load", "Client settings"…).</param>
/// <param name="Label">Its name for people, e.g. "Connection mode".</param>
/// <param name="Values">Each run's value as shown, in the comparison's order; "—" where a run has none.</param>
public sealed record ConfigurationDiffRow(string Path, string Group, string Label, IReadOnlyList<string> Values)
{
    /// <summary>"Connection mode: Gateway | Direct".</summary>
    public override string ToString() => $"{Label}: {string.Join(" | ", Values)}";
}
