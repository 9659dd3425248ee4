using BenchEngine.Diagnostics;
using BenchEngine.Targets;

namespace BenchWeb.Data;

/// <summary>One of a run's slowest requests with its diagnostics (the engine's <see cref="SlowRequest"/>), saved as its
/// second is delivered: the SDK's text for Cosmos DB, request ids and timings for Azure Storage, the command for Redis.
/// Its own table, so that reading a run's seconds never reads these texts.</summary>
public sealed class RunDiagnosticEntity
{
    public long Id { get; set; }

    public long RunId { get; set; }

    /// <summary>The shard that measured it (0 for a run on one agent).</summary>
    public int Shard { get; set; }

    /// <summary>Its number among the shard's kept requests, by which the engine later removes it when slower ones need room.</summary>
    public int Number { get; set; }

    /// <summary>The run's second its last response arrived in (0-based).</summary>
    public int Second { get; set; }

    public double LatencyMs { get; set; }

    public int StatusCode { get; set; }

    /// <summary>How it ended (<see cref="OutcomeKind"/>: Ok, Error, or Throttled for a request given up).</summary>
    public OutcomeKind Outcome { get; set; }

    public int Attempts { get; set; }

    public string Target { get; set; } = "";

    public string Summary { get; set; } = "";

    public string Text { get; set; } = "";

    public bool Truncated { get; set; }

    /// <summary>The engine's entry as it is saved, placed in the run's seconds by <paramref name="secondOffset"/> (a shard
    /// that joined late).</summary>
    public static RunDiagnosticEntity From(long runId, int shard, int number, SlowRequest request, int secondOffset = 0)
    {
        ArgumentNullException.ThrowIfNull(request);
        return new RunDiagnosticEntity
        {
            RunId = runId,
            Shard = shard,
            Number = number,
            Second = request.Second + secondOffset,
            LatencyMs = request.LatencyMs,
            StatusCode = request.StatusCode,
            Outcome = request.Outcome,
            Attempts = request.Attempts,
            Target = request.Target,
            Summary = request.Summary,
            Text = request.Text,
            Truncated = request.Truncated,
        };
    }

    /// <summary>The entry as the engine, the API and the export write it.</summary>
    public SlowRequest ToSlowRequest() => new()
    {
        Second = Second,
        LatencyMs = LatencyMs,
        StatusCode = StatusCode,
        Outcome = Outcome,
        Attempts = Attempts,
        Target = Target,
        Summary = Summary,
        Text = Text,
        Truncated = Truncated,
    };
}
