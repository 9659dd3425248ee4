using System.Text.Json.Serialization;
using BenchEngine.Targets;

namespace BenchEngine.Diagnostics;

/// <summary>One of a run's slowest requests, with its diagnostics: the SDK's own account for Cosmos DB, the request ids and
/// timings for Azure Storage, the command and connection for Redis, a line saying so for a model. Never holds a credential.</summary>
public sealed record SlowRequest
{
    /// <summary>The second of the run its last response arrived in (0 for the first).</summary>
    public int Second { get; init; }

    /// <summary>From the intended start to the last response, in milliseconds: retries and their waits included.</summary>
    public double LatencyMs { get; init; }

    /// <summary>The last response's status (0 when none arrived).</summary>
    public int StatusCode { get; init; }

    /// <summary>How the request ended: ok, an error, or throttled until its retries ran out (given up).</summary>
    [JsonConverter(typeof(JsonStringEnumConverter<OutcomeKind>))]
    public OutcomeKind Outcome { get; init; }

    /// <summary>Requests sent for it: 1, plus one per throttle the engine retried.</summary>
    public int Attempts { get; init; } = 1;

    /// <summary>The target, as the run describes it ("Cosmos DB (SQL API) · Gateway").</summary>
    public string Target { get; init; } = "";

    /// <summary>One line: status, latency and what stands out.</summary>
    public string Summary { get; init; } = "";

    /// <summary>The whole text, at most <see cref="DiagnosticsOptions.MaxTextLength"/> characters.</summary>
    public string Text { get; init; } = "";

    /// <summary>Whether <see cref="Text"/> was cut to its bound (it then ends with a line saying so).</summary>
    public bool Truncated { get; init; }

    /// <summary>The longest summary line kept.</summary>
    public const int MaxSummaryLength = 300;

    /// <summary>The longest target description kept.</summary>
    public const int MaxTargetLength = 200;
}
