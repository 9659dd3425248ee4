namespace BenchWeb.Apis;

/// <summary>Stopping all runs: why (shown to everyone whose launch is refused until launching resumes).</summary>
public sealed record KillSwitchRequest
{
    public string? Reason { get; init; }
}
