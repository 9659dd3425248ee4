namespace BenchEngine.Metrics;

/// <summary>Consecutive client-limited seconds and why, in words: "seconds 24–31: the client was starved: scheduling lag p99
/// 180 ms, host CPU 100 %, this process 22 %" (the figures of the span's worst second).</summary>
public sealed record ClientLimitedSpan
{
    public int FirstSecond { get; init; }

    public int LastSecond { get; init; }

    /// <summary>Every bound crossed in the span.</summary>
    public ClientLimitKinds Limits { get; init; }

    /// <summary>Why, with the worst second's figures.</summary>
    public string Reason { get; init; } = "";

    /// <summary>"second 7" or "seconds 24–31" (0-based, as the charts count).</summary>
    public string Seconds => FirstSecond == LastSecond ? $"second {FirstSecond}" : $"seconds {FirstSecond}–{LastSecond}";

    /// <summary>"seconds 24–31: the client was starved: …".</summary>
    public string Describe() => $"{Seconds}: {Reason}";
}
