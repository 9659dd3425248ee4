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

    /// <summary>The run's slowest requests with their diagnostics, in the order of their seconds (<see cref="RunDiagnostics"/>).</summary>
    public async Task<IReadOnlyList<BenchEngine.Diagnostics.SlowRequest>> SlowRequestsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunDiagnostics.OfRunAsync(db, runId, null, cancellationToken);
    }

    /// <summary>A run spread over agents: each agent's part (<see cref="RunAgentBreakdown"/>).</summary>
    public async Task<IReadOnlyList<RunAgentRow>> AgentsAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunAgentBreakdown.ForRunAsync(db, runId, cancellationToken);
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

    /// <summary>The runs of a comparison (<see cref="RunComparison"/>), with their seconds when asked.</summary>
    public async Task<RunComparison> CompareAsync(IReadOnlyList<long> ids, bool includeSeconds, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await RunComparison.LoadAsync(db, ids, includeSeconds, cancellationToken);
    }
}
