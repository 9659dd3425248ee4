using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Support;

/// <summary>Reads a hosted app's database the way its pages do, for tests that wait on a run's job.</summary>
public static class AppDatabase
{
    public static Task<BenchDbContext> OpenDatabaseAsync(this IServiceProvider services) =>
        services.GetRequiredService<IDbContextFactory<BenchDbContext>>().CreateDbContextAsync(CancellationToken.None);

    /// <summary>The run's row as stored now.</summary>
    public static async Task<RunEntity> RunAsync(this IServiceProvider services, long runId)
    {
        await using var db = await services.OpenDatabaseAsync();
        return await db.Runs.AsNoTracking().SingleAsync(r => r.Id == runId);
    }

    /// <summary>The run's saved seconds, in order.</summary>
    public static async Task<List<RunSecondEntity>> SecondsAsync(this IServiceProvider services, long runId)
    {
        await using var db = await services.OpenDatabaseAsync();
        return await db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync();
    }

    /// <summary>Waits until the run has ended and returns its row.</summary>
    public static async Task<RunEntity> WaitUntilEndedAsync(this IServiceProvider services, long runId, TimeSpan timeout)
    {
        RunEntity? run = null;
        await Eventually.TrueAsync(async () => !(run = await services.RunAsync(runId)).IsActive, timeout, $"run {runId} to end");
        return run!;
    }
}
