using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Guard.Administration;

/// <summary>The installation's kill switch, as stored: while engaged, no run is launched. Stored in the database, so
/// it survives a restart and every instance sharing the database sees it. Stopping the runs that are going is
/// <see cref="Launch.RunService.StopAllAsync"/>, which engages the switch first.</summary>
public sealed partial class KillSwitch(IDbContextFactory<BenchDbContext> databases, AuditLog audit, TimeProvider time, ILogger<KillSwitch> logger)
{
    public const int MaxReasonLength = 500;

    public async Task<KillSwitchState> StateAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return State(await db.LaunchPauses.AsNoTracking().SingleOrDefaultAsync(cancellationToken));
    }

    /// <summary>Pauses launching (recorded in the audit log). Already paused: a new reason replaces the old; none keeps it.</summary>
    public Task<KillSwitchState> EngageAsync(Actor actor, string? reason, CancellationToken cancellationToken) =>
        SetAsync(actor, engaged: true, reason, cancellationToken);

    /// <summary>Lets runs be launched again (recorded in the audit log).</summary>
    public Task<KillSwitchState> ReleaseAsync(Actor actor, CancellationToken cancellationToken) =>
        SetAsync(actor, engaged: false, null, cancellationToken);

    private async Task<KillSwitchState> SetAsync(Actor actor, bool engaged, string? reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        reason = string.IsNullOrWhiteSpace(reason) ? null : reason.Trim();
        if (reason is { Length: > MaxReasonLength })
        {
            reason = reason[..MaxReasonLength];
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var row = await db.LaunchPauses.SingleOrDefaultAsync(cancellationToken);
        var wasEngaged = row?.Paused == true;
        // Nothing changes: resuming what was never paused, or pausing again with the same reason or none (the first
        // reason stays: a second press of the button says nothing new).
        if (wasEngaged == engaged && (!engaged || reason is null || row!.Reason == reason))
        {
            return State(row);
        }

        if (row is null)
        {
            row = new LaunchPauseEntity { ChangedBy = actor.Name };
            db.LaunchPauses.Add(row);
        }

        row.Paused = engaged;
        row.ChangedAt = time.GetUtcNow();
        row.ChangedBy = actor.Name;
        row.Reason = engaged ? reason : null;
        audit.Append(db, actor, engaged ? AuditActions.LaunchesPaused : AuditActions.LaunchesResumed, "launching",
            engaged ? (reason is null ? "all runs stopped; no reason given" : $"all runs stopped: {reason}") : null);
        await db.SaveChangesAsync(cancellationToken);
        if (engaged)
        {
            LogPaused(logger, actor.UserId);
        }
        else
        {
            LogResumed(logger, actor.UserId);
        }

        return State(row);
    }

    private static KillSwitchState State(LaunchPauseEntity? row) =>
        row is null ? KillSwitchState.Released : new KillSwitchState(row.Paused, row.ChangedAt, row.ChangedBy, row.Paused ? row.Reason : null);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Launching paused by {UserId}: every run is being stopped and no run starts until launching resumes")]
    private static partial void LogPaused(ILogger logger, string userId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Launching resumed by {UserId}")]
    private static partial void LogResumed(ILogger logger, string userId);
}
