namespace BenchWeb.Compare;

/// <summary>One labelled section of a run's settings ("Target", "Load"…), each row with the run's single value.</summary>
public sealed record PlanSettingsSection(string Name, IReadOnlyList<ConfigurationDiffRow> Rows);
