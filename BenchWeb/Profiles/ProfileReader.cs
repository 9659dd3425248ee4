using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Profiles;

/// <summary>The read side of saved profiles: the pages, the HTTP API and launches ask this rather than open the database.
/// Saving, cloning and deleting stay with <see cref="ProfileService"/>.</summary>
public sealed class ProfileReader(IDbContextFactory<BenchDbContext> databases)
{
    /// <summary>Every saved profile, by name (ties by id).</summary>
    public async Task<IReadOnlyList<ProfileEntity>> ListAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Profiles.AsNoTracking().OrderBy(p => p.Name).ThenBy(p => p.Id).ToListAsync(cancellationToken);
    }

    /// <summary>The profile, or null when there is no such profile.</summary>
    public async Task<ProfileEntity?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Profiles.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, cancellationToken);
    }

    /// <summary>For each profile with a completed run, its latest one's id and average throughput: the rate its next run
    /// can expect, to say how long that will take.</summary>
    public async Task<IReadOnlyDictionary<long, (long RunId, double PerSecond)>> LastRatesAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var completed = await db.Runs.AsNoTracking()
            .Where(r => r.ProfileId != null && r.Status == RunStatus.Completed && r.AverageThroughput > 0)
            .Select(r => new { r.Id, ProfileId = r.ProfileId!.Value, r.AverageThroughput })
            .ToListAsync(cancellationToken);
        return completed.GroupBy(r => r.ProfileId).ToDictionary(g => g.Key, g => g.MaxBy(r => r.Id) is { } last ? (last.Id, last.AverageThroughput ?? 0) : default);
    }
}
