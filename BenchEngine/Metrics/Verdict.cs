namespace BenchEngine.Metrics;

/// <summary>Whether a run met its thresholds, check by check.</summary>
public sealed record Verdict
{
    public bool Passed { get; init; }

    public IReadOnlyList<ThresholdCheck> Checks { get; init; } = [];

    /// <summary>One line for lists and logs, e.g. "Failed: p99 latency 812 ms > 500 ms".</summary>
    public string Describe() =>
        Passed ? $"Passed ({Checks.Count} check{(Checks.Count == 1 ? "" : "s")})" : "Failed: " + string.Join("; ", Checks.Where(c => !c.Passed).Select(c => c.Message));
}

/// <summary>One threshold check: what was required, what was measured.</summary>
public sealed record ThresholdCheck(string Name, bool Passed, string Message);
