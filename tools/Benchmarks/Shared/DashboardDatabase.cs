using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace Benchmarks;

/// <summary>The dashboard's database, read and written directly: a run's row once its summary is written, runs seeded for
/// the history page, and the shards' latency histograms of a run spread over agents.</summary>
internal static class DashboardDatabase
{
    /// <summary>The run's row in the dashboard's database, once its summary is written.</summary>
    public static async Task<(string SummaryJson, string PlanJson)> ReadRunAsync(DashboardProcess dashboard, long runId)
    {
        for (var attempt = 0; attempt < 100; attempt++)
        {
            await using var connection = new SqliteConnection($"Data Source={dashboard.DatabasePath};Mode=ReadOnly");
            await connection.OpenAsync();
            await using var command = connection.CreateCommand();
            command.CommandText = "SELECT SummaryJson, PlanJson FROM Runs WHERE Id = $id";
            command.Parameters.AddWithValue("$id", runId);
            await using var reader = await command.ExecuteReaderAsync();
            if (await reader.ReadAsync() && !await reader.IsDBNullAsync(0))
            {
                return (reader.GetString(0), reader.GetString(1));
            }

            await Task.Delay(100);
        }

        throw new InvalidOperationException($"Run {runId} has no summary in the dashboard's database.");
    }

    /// <summary>Runs as the run job leaves them — headline columns filled in, and the plan, summary, environment and verdict
    /// JSON a real run carries (a few KB a row, so the table's pages are as full as in real use) — through EF in one
    /// transaction.</summary>
    public static async Task SeedRunsAsync(string databasePath, int count)
    {
        var options = new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={databasePath}").Options;
        await using var db = new BenchDbContext(options);
        var random = new Random(4);
        var kinds = new[] { TargetKind.Simulated, TargetKind.CosmosSql, TargetKind.TableStorage, TargetKind.CosmosTable };
        var statuses = new[] { RunStatus.Completed, RunStatus.Completed, RunStatus.Completed, RunStatus.Failed, RunStatus.Cancelled };
        var tags = new[] { ",gateway,2 cores,", ",direct,8 cores,", ",baseline,", null, null };
        var plans = BenchEngine.Presets.SeedPresets.All.Select(p => p.Plan.ToJson()).ToArray();
        var environmentJson = JsonSerializer.Serialize(BenchEngine.Metrics.ClientEnvironment.Capture(), RunPlan.JsonOptions);
        var start = DateTimeOffset.UtcNow.AddDays(-365);
        db.ChangeTracker.AutoDetectChangesEnabled = false;
        await using var transaction = await db.Database.BeginTransactionAsync();
        for (var i = 0; i < count; i++)
        {
            var status = statuses[random.Next(statuses.Length)];
            var throughput = 200 + random.NextDouble() * 4_000;
            db.Runs.Add(new BenchWeb.Data.RunEntity
            {
                ProfileName = $"Profile {i % 40}",
                PlanJson = plans[i % plans.Length],
                EnvironmentJson = environmentJson,
                SummaryJson = JsonSerializer.Serialize(new BenchEngine.Metrics.RunSummary
                {
                    Elapsed = TimeSpan.FromSeconds(300),
                    TotalOk = (long)(throughput * 300),
                    AverageThroughput = throughput,
                    MeanPerSecondThroughput = throughput,
                    P99PerSecondThroughput = throughput * 1.2,
                    Latency = new BenchEngine.Metrics.LatencySummary { Count = (long)(throughput * 300), MeanMs = 8, P50Ms = 6, P95Ms = 20, P96Ms = 22, P99Ms = 40, P999Ms = 80, MaxMs = 300 },
                    RequestUnitsPerInsert = 6,
                    ErrorsByStatus = new Dictionary<int, long> { [409] = 3 },
                }, RunPlan.JsonOptions),
                VerdictJson = i % 3 == 0 ? """{"passed":true,"checks":[{"name":"completed","passed":true,"message":"the run completed"}]}""" : null,
                Status = status,
                TargetKind = kinds[i % kinds.Length],
                TargetDescription = $"Seeded target {i % 7}",
                QueuedAt = start.AddMinutes(i * 50),
                ElapsedSeconds = 60 + random.Next(600),
                AverageThroughput = throughput,
                P99LatencyMs = 5 + random.NextDouble() * 200,
                ThrottledFraction = random.NextDouble() * 0.05,
                Verdict = i % 3 == 0 ? (throughput > 1_000 ? "Passed" : "Failed") : null,
                Tags = tags[i % tags.Length],
                Notes = i % 10 == 0 ? $"Seeded run {i}: notes a user might keep about this run." : null,
            });
            if (i % 1_000 == 999)
            {
                await db.SaveChangesAsync();
                db.ChangeTracker.Clear();
            }
        }

        await db.SaveChangesAsync();
        await transaction.CommitAsync();
    }

    /// <summary>The run's latency: its shards' histograms in PostgreSQL, decoded and merged here, independently of the dashboard.</summary>
    public static async Task<BenchEngine.Metrics.LatencyDistribution> MergedShardHistogramAsync(string database, long runId)
    {
        await using var connection = new Npgsql.NpgsqlConnection(database);
        await connection.OpenAsync();
        await using var command = new Npgsql.NpgsqlCommand($"SELECT \"LatencyHistogram\" FROM \"RunShards\" WHERE \"RunId\" = {runId}", connection);
        await using var reader = await command.ExecuteReaderAsync();
        var merged = new BenchEngine.Metrics.LatencyDistribution();
        while (await reader.ReadAsync())
        {
            merged.Add(BenchEngine.Metrics.LatencyDistribution.Decode((byte[])reader[0]));
        }

        return merged;
    }
}
