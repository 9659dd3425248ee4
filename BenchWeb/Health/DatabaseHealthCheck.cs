using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BenchWeb.Health;

/// <summary>Ready only when the database answers: the SQLite file in embedded mode, PostgreSQL in shared mode.</summary>
internal sealed class DatabaseHealthCheck(IDbContextFactory<BenchDbContext> databases) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        await using var database = await databases.CreateDbContextAsync(cancellationToken);
        return await database.Database.CanConnectAsync(cancellationToken)
            ? HealthCheckResult.Healthy()
            : new HealthCheckResult(context.Registration.FailureStatus, "The database cannot be reached.");
    }
}
