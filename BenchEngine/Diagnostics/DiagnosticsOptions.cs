namespace BenchEngine.Diagnostics;

/// <summary>Which requests of a run keep their diagnostics (the SDK's account of the request: regions, retries, transport
/// timeline, request ids). A request is kept when it took at least <see cref="ThresholdMs"/>, or when it is among the
/// <see cref="SlowestPerSecond"/> slowest of its second; whatever the settings, a second keeps at most
/// <see cref="MaxPerSecond"/> and a run <see cref="MaxEntries"/> (the slowest), each text at most
/// <see cref="MaxTextLength"/> characters and all together at most <see cref="MaxTotalLength"/>.</summary>
public sealed record DiagnosticsOptions
{
    /// <summary>What a plan without a <c>diagnostics</c> section gets: the slowest request of every second.</summary>
    public static readonly DiagnosticsOptions Default = new();

    /// <summary>The most requests a second keeps, its slowest.</summary>
    public const int MaxPerSecond = 10;

    /// <summary>The most requests a run keeps, its slowest.</summary>
    public const int MaxEntries = 200;

    /// <summary>The longest text kept for one request, in characters; a longer one is cut, and says so at its end.</summary>
    public const int MaxTextLength = 64 * 1024;

    /// <summary>The most characters of text a run keeps for all its requests together.</summary>
    public const int MaxTotalLength = 5 * 1024 * 1024;

    /// <summary>The longest threshold: an hour.</summary>
    public const double MaxThresholdMs = 3_600_000;

    /// <summary>Keep every request that took at least this many milliseconds (from its intended start, retries included);
    /// null (the default): no threshold.</summary>
    public double? ThresholdMs { get; init; }

    /// <summary>Keep the slowest requests of every second, this many (default 1; 0: none).</summary>
    public int SlowestPerSecond { get; init; } = 1;

    /// <summary>Whether no request keeps its diagnostics.</summary>
    public bool IsOff => ThresholdMs is null && SlowestPerSecond <= 0;
}
