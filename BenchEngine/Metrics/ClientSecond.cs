namespace BenchEngine.Metrics;

/// <summary>A run's worst second for the client (<see cref="RunSummary.WorstClientSecond"/>): the one closest to, or furthest
/// past, a bound of <see cref="ClientLimits"/>. Compare and results show it for each run.</summary>
public sealed record ClientSecond
{
    public int Index { get; init; }

    /// <summary>This process's CPU over that second.</summary>
    public double ClientCpuPercent { get; init; }

    public ClientHealth Health { get; init; } = new();

    /// <summary>Why it was client-limited, in words; empty when it was not.</summary>
    public string Reason { get; init; } = "";
}
