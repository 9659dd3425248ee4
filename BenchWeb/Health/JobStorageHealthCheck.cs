using Hangfire;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BenchWeb.Health;

/// <summary>Ready only when Hangfire's job storage answers, whichever storage is configured: a connection is opened and
/// asked for a set that does not exist, the cheapest read every storage has.</summary>
internal sealed class JobStorageHealthCheck(JobStorage storage) : IHealthCheck
{
    private const string ProbeSet = "benchweb:health";

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        // Hangfire's storage API is synchronous; a storage on a network database blocks for the round trip.
        Task.Run(() =>
        {
            using var connection = storage.GetConnection();
            connection.GetAllItemsFromSet(ProbeSet);
            return HealthCheckResult.Healthy();
        }, cancellationToken);
}
