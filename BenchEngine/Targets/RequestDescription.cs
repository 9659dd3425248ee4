namespace BenchEngine.Targets;

/// <summary>A target's account of one slow request: a line for lists, and the whole text (the SDK's diagnostics where it has
/// them). The engine removes anything that looks like a credential and bounds the text before it is kept.</summary>
/// <param name="Summary">One line: status, latency and what stands out (regions, retries, request id).</param>
/// <param name="Text">Everything the target can say about the request, in plain text or the SDK's own JSON.</param>
public readonly record struct RequestDescription(string Summary, string Text)
{
    /// <summary>What any target can say with no diagnostics of its own: the outcome, the latency and the attempts.</summary>
    /// <param name="request">The request.</param>
    /// <param name="note">A sentence saying why there is no more (a model, a client-only target).</param>
    public static RequestDescription Plain(in SlowRequestFacts request, string note) => new(
        $"{request.OutcomeText} · {request.LatencyText} · {request.AttemptsText}",
        $"""
        outcome: {request.OutcomeText}
        latency: {request.LatencyText} (from the intended start, retries included)
        attempts: {request.AttemptsText}
        documents: {request.Outcome.Documents}
        {note}
        """);
}
