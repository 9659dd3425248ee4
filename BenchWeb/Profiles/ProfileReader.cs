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

    /// <summary>The profiles whose plan mentions <paramref name="text"/> (<see cref="ProfilePlansReader"/>).</summary>
    public async Task<IReadOnlyList<PlanHolder>> PlansMentioningAsync(string text, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Profiles.AsNoTracking().Where(p => p.PlanJson.Contains(text))
            .Select(p => new PlanHolder(p.Id, p.Name, p.PlanJson)).ToListAsync(cancellationToken);
    }
}
