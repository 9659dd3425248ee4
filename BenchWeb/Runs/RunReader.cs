using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Runs;

/// <summary>The read side of runs for the pages and the live feed: a run's row, with its seconds when asked, and the seconds
/// of a range. Pages ask this rather than open the database.</summary>
public sealed class RunReader(IDbContextFactory<BenchDbContext> databases)
{
    /// <summary>The run's row, or null when there is no such run.</summary>
    public async Task<RunEntity?> FindAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
    }

    /// <summary>The run's row with every second saved so far, in order (<see cref="RunEntity.Seconds"/>); null when there
    /// is no such run. One query: the seconds are read beside the row, not once per row.</summary>
    public async Task<RunEntity?> WithSecondsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking()
            .Include(r => r.Seconds.OrderBy(s => s.Index))
            .AsSplitQuery()
            .SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
    }

    /// <summary>The run's seconds after <paramref name="afterIndex"/> (-1: from the first) and before
    /// <paramref name="beforeIndex"/> (null: to the last saved), in order, at most <paramref name="take"/>.</summary>
    public async Task<IReadOnlyList<RunSecondEntity>> SecondsAsync(long runId, int afterIndex, int? beforeIndex, int take, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var seconds = db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId && s.Index > afterIndex);
        if (beforeIndex is { } before)
        {
            seconds = seconds.Where(s => s.Index < before);
        }

        return await seconds.OrderBy(s => s.Index).Take(take).ToListAsync(cancellationToken);
    }

    /// <summary>The run's slowest requests with their diagnostics, as saved, in the order of their seconds
    /// (<see cref="RunDiagnostics"/>).</summary>
    public async Task<List<RunDiagnosticEntity>> SlowRequestsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunDiagnostics.EntriesOfRunAsync(db, runId, null, cancellationToken);
    }

    /// <summary>A run spread over agents: each agent's part (<see cref="RunAgentBreakdown"/>).</summary>
    public async Task<IReadOnlyList<RunAgentRow>> AgentsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunAgentBreakdown.ForRunAsync(db, runId, cancellationToken);
    }

    /// <summary>Where a queued run stands: its place among the runs and sweeps queued before it, and what executes now, which
    /// it waits for (at most <paramref name="listed"/> runs named). A sweep holds a worker for all its steps, between them
    /// too.</summary>
    public async Task<RunQueuePlace> QueuePlaceAsync(long runId, int listed, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        // A run deleted meanwhile is behind nothing.
        var queuedAt = await db.Runs.Where(r => r.Id == runId).Select(r => (DateTimeOffset?)r.QueuedAt).FirstOrDefaultAsync(cancellationToken) ?? DateTimeOffset.MinValue;
        var runsAhead = await db.Runs.CountAsync(r => r.Status == RunStatus.Queued && r.Id < runId && r.SweepId == null, cancellationToken);
        var sweepsAhead = await db.Sweeps.CountAsync(s => s.Status == RunStatus.Queued && s.QueuedAt < queuedAt, cancellationToken);
        var running = await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Running).OrderBy(r => r.Id).Take(listed + 1)
            .Select(r => new RunQueueAhead(r.Id, r.ProfileName)).ToListAsync(cancellationToken);
        var sweeps = await db.Sweeps.AsNoTracking().Where(s => s.Status == RunStatus.Running).OrderBy(s => s.Id).Select(s => s.Id).ToListAsync(cancellationToken);
        return new RunQueuePlace(runsAhead + sweepsAhead + 1, [.. running.Take(listed)], running.Count > listed, sweeps);
    }

    /// <summary>The newest runs, at most <paramref name="count"/>.</summary>
    public async Task<IReadOnlyList<RunEntity>> RecentAsync(int count, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Runs.AsNoTracking().OrderByDescending(r => r.Id).Take(count).ToListAsync(cancellationToken);
    }

    /// <summary>A page of the run history (<see cref="RunHistoryQuery"/>), its dates in the server's time zone.</summary>
    public async Task<RunHistoryPage> HistoryAsync(RunHistoryFilter filter, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunHistoryQuery.ExecuteAsync(db, filter, null, cancellationToken);
    }

    /// <summary>A sweep's name; null when there is no such sweep.</summary>
    public async Task<string?> SweepNameAsync(long sweepId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Sweeps.AsNoTracking().Where(s => s.Id == sweepId).Select(s => s.Name).SingleOrDefaultAsync(cancellationToken);
    }

    /// <summary>The newest sweeps' numbers and names (at most <see cref="Sweeps.SweepReader.MaxListed"/>), for the list's filter.</summary>
    public async Task<IReadOnlyList<(long Id, string Name)>> SweepNamesAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var sweeps = await db.Sweeps.AsNoTracking().OrderByDescending(s => s.Id).Take(Sweeps.SweepReader.MaxListed)
            .Select(s => new { s.Id, s.Name }).ToListAsync(cancellationToken);
        return [.. sweeps.Select(s => (s.Id, s.Name))];
    }

    /// <summary>The runs of a comparison (<see cref="RunComparison"/>), with their seconds when asked.</summary>
    public async Task<RunComparison> CompareAsync(IReadOnlyList<long> ids, bool includeSeconds, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunComparison.LoadAsync(db, ids, includeSeconds, cancellationToken);
    }
}

/// <summary>A queued run's place: 1 when it is next; the runs executing now (the first of them, and whether there are
/// more), and the sweeps executing now (each holds a worker between its steps too).</summary>
public sealed record RunQueuePlace(int Position, IReadOnlyList<RunQueueAhead> Running, bool MoreRunning, IReadOnlyList<long> Sweeps);

/// <summary>A run a queued one waits for.</summary>
public sealed record RunQueueAhead(long Id, string Name);
