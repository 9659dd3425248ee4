using System.Globalization;

namespace BenchEngine.Targets;

/// <summary>What the engine knows of one of a run's slowest requests when it asks the target to describe it
/// (<see cref="IInsertTarget.DescribeRequest"/>): the request's last outcome, with what the target kept for diagnostics,
/// how long it took and how many attempts it made.</summary>
/// <param name="Outcome">The request's last response (for a request given up, its last throttle).</param>
/// <param name="Latency">From the request's intended start to its last response: retries and their waits included, and, in
/// the open loop, any wait before it was sent.</param>
/// <param name="Attempts">Requests sent for it: 1, plus one per throttle the engine retried.</param>
public readonly record struct SlowRequestFacts(OperationOutcome Outcome, TimeSpan Latency, int Attempts)
{
    /// <summary>The latency in milliseconds, as every text about a slow request writes it ("212.4 ms").</summary>
    public string LatencyText => Latency.TotalMilliseconds.ToString("N1", CultureInfo.InvariantCulture) + " ms";

    /// <summary>The outcome in words: "201 ok", "409 error", "429 throttled, given up".</summary>
    public string OutcomeText => Outcome.Kind switch
    {
        OutcomeKind.Ok => $"{Outcome.StatusCode} ok",
        OutcomeKind.Throttled => $"{Outcome.StatusCode} throttled, given up",
        _ => Outcome.StatusCode == 0 ? "no response" : $"{Outcome.StatusCode} error",
    };

    /// <summary>"1 attempt", "3 attempts (2 throttled, retried by the engine)".</summary>
    public string AttemptsText => Attempts <= 1
        ? "1 attempt"
        : string.Create(CultureInfo.InvariantCulture, $"{Attempts} attempts ({(Outcome.Kind == OutcomeKind.Throttled ? Attempts : Attempts - 1)} throttled, retried by the engine)");
}
