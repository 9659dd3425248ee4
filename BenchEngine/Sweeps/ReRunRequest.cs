namespace BenchEngine.Sweeps;

/// <summary>A step to run once more: it crossed the knee rule and the next step did not confirm it, or it was the last
/// step (<see cref="KneeDetector.NextReRun"/>).</summary>
/// <param name="Index">The step's number in the sweep.</param>
/// <param name="Reason">Why, in words: "p99 rose past the rule at this step only".</param>
public sealed record ReRunRequest(int Index, string Reason);
