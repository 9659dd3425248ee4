using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Sweeps;

/// <summary>A sweep with the runs of its steps (re-runs included), as the pages, the API and the exports show it.</summary>
public sealed record SweepWithSteps(SweepEntity Sweep, IReadOnlyList<RunEntity> Steps);

/// <summary>The read side of sweeps: pages and the API ask this rather than open the database.</summary>
public sealed class SweepReader(IDbContextFactory<BenchDbContext> databases)
{
    /// <summary>The most sweeps a list holds, newest first.</summary>
    public const int MaxListed = 200;

    /// <summary>The sweep with its steps' runs; null when there is no such sweep.</summary>
    public async Task<SweepWithSteps?> FindAsync(long sweepId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var sweep = await db.Sweeps.AsNoTracking().SingleOrDefaultAsync(s => s.Id == sweepId, cancellationToken);
        return sweep is null ? null : new SweepWithSteps(sweep, await db.Runs.AsNoTracking().Where(r => r.SweepId == sweepId).ToListAsync(cancellationToken));
    }

    /// <summary>The newest sweeps' numbers and names (at most <see cref="MaxListed"/>), newest first: the run list's sweep
    /// filter offers them.</summary>
    public async Task<IReadOnlyList<(long Id, string Name)>> NamesAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var sweeps = await db.Sweeps.AsNoTracking().OrderByDescending(s => s.Id).Take(MaxListed)
            .Select(s => new { s.Id, s.Name }).ToListAsync(cancellationToken);
        return [.. sweeps.Select(s => (s.Id, s.Name))];
    }

    /// <summary>The newest sweeps (at most <see cref="MaxListed"/>), each with its steps' runs.</summary>
    public async Task<IReadOnlyList<SweepWithSteps>> ListAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var sweeps = await db.Sweeps.AsNoTracking().OrderByDescending(s => s.QueuedAt).ThenByDescending(s => s.Id).Take(MaxListed).ToListAsync(cancellationToken);
        var ids = sweeps.Select(s => (long?)s.Id).ToList();
        var runs = await db.Runs.AsNoTracking().Where(r => ids.Contains(r.SweepId)).ToListAsync(cancellationToken);
        return [.. sweeps.Select(s => new SweepWithSteps(s, [.. runs.Where(r => r.SweepId == s.Id)]))];
    }
}
