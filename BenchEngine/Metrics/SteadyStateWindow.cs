using System.Text.Json.Serialization;

namespace BenchEngine.Metrics;

/// <summary>The steady part of a run: from the first to the last second whose throughput reached
/// half the median of the full seconds; seconds before are warm-up, after are cool-down.</summary>
public sealed record SteadyStateWindow
{
    /// <summary>Index of the first steady second (inclusive).</summary>
    public int FirstSecond { get; init; }

    /// <summary>Index of the last steady second (inclusive); −1 when the run had no full second.</summary>
    public int LastSecond { get; init; } = -1;

    public int Seconds => LastSecond < FirstSecond ? 0 : LastSecond - FirstSecond + 1;

    public double MeanThroughput { get; init; }

    public double RequestUnitsPerSecond { get; init; }

    public double ThrottledFraction { get; init; }

    /// <summary>Client-limited seconds inside the window, left out of its figures.</summary>
    public int SecondsLeftOut { get; init; }

    /// <summary>Why no window was found; null when one was, or in summaries stored before the reason was kept.</summary>
    public NoSteadyState? Absence { get; init; }
}

/// <summary>Why a run has no steady-state window (<see cref="SteadyStateWindow.Absence"/>).</summary>
[JsonConverter(typeof(JsonStringEnumConverter<NoSteadyState>))]
public enum NoSteadyState
{
    /// <summary>The run had fewer full seconds than a window holds (<see cref="SummaryCalculator.MinSteadySeconds"/>).</summary>
    TooShort,

    /// <summary>No full second landed anything.</summary>
    NothingLanded,

    /// <summary>The run had full seconds enough, but the client was the limit in so many of them that fewer than
    /// <see cref="SummaryCalculator.MinSteadySeconds"/> were the service's.</summary>
    ClientLimited,

    /// <summary>The service's seconds were enough, but fewer of them than a window holds lay between the first and the last
    /// at half the median rate.</summary>
    TooFewSteadySeconds,
}
