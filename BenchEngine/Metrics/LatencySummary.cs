using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>Latency over a run's successful operations, in milliseconds; every figure is null when none succeeded.</summary>
/// <remarks>The percentile set of load tools users compare with (P50, P75, P90, P95, P98, P99, P99.9, max); P96 stays for the
/// seed experiments' published figures.</remarks>
public sealed record LatencySummary
{
    /// <summary>Successful operations measured.</summary>
    public long Count { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? MeanMs { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P50Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P75Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P90Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P95Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P96Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P98Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P99Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? P999Ms { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public double? MaxMs { get; init; }
}
