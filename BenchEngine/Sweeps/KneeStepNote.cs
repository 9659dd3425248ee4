namespace BenchEngine.Sweeps;

/// <summary>What the knee rule made of one step, in words: that it was client-limited and not judged, that it was re-run
/// and what the re-run showed, or that it is the series' limit.</summary>
public sealed record KneeStepNote
{
    /// <summary>The step's number in the sweep.</summary>
    public int Index { get; init; }

    /// <summary>The note is about the step's re-run ("re-run: …").</summary>
    public bool ReRun { get; init; }

    /// <summary>The step's client, not the service, was the limit.</summary>
    public bool ClientLimited { get; init; }

    public string Text { get; init; } = "";
}
