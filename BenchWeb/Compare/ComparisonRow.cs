namespace BenchWeb.Compare;

/// <summary>One figure of a comparison's summary table, for every run (in the comparison's order).</summary>
/// <param name="Key">A stable name for the figure (tests, CSS, data attributes).</param>
/// <param name="Label">What the page calls it, with its unit.</param>
/// <param name="Texts">Each run's figure as shown; "—" when the run has none.</param>
/// <param name="Values">Each run's figure as a number; null for text figures and runs without one.</param>
/// <param name="Changes">Against the first run: null for the first run itself and when either figure is missing.</param>
/// <param name="Format">The number format of the figure and of its absolute change.</param>
/// <param name="HigherIsBetter">True or false when a rise is good or bad news; null when neither (elapsed, RU/s).</param>
public sealed record ComparisonRow(
    string Key,
    string Label,
    IReadOnlyList<string> Texts,
    IReadOnlyList<double?> Values,
    IReadOnlyList<ComparisonChange?> Changes,
    string Format,
    bool? HigherIsBetter);
