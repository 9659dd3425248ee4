using BenchWeb.Guard.Administration;

namespace BenchWeb.Apis;

/// <summary>The kill switch's state, and the runs a stop cancelled.</summary>
public sealed record KillSwitchResponse(bool Paused, DateTimeOffset? ChangedAt, string? ChangedBy, string? Reason, string Message, IReadOnlyList<long> CancelledRuns)
{
    public static KillSwitchResponse From(KillSwitchState state, IReadOnlyList<long>? cancelled = null)
    {
        ArgumentNullException.ThrowIfNull(state);
        return new(state.Engaged, state.ChangedAt, state.ChangedBy, state.Reason, state.Message, cancelled ?? []);
    }
}
