namespace BenchWeb.History;

/// <summary>The columns the run history sorts by; each maps to an indexed or headline column of the runs table.</summary>
public enum RunHistorySort
{
    Id,
    Profile,
    Target,
    Status,
    Queued,
    Duration,
    Throughput,
    P99,
    Throttled,
}
