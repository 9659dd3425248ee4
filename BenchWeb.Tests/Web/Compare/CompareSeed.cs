using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Web.Compare;

/// <summary>Finished runs written straight into a test database, as the run job would have left them.</summary>
internal static class CompareSeed
{
    public static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    public static ClientEnvironment Environment(int processors = 2, string machine = "bench-vm") => new()
    {
        ProcessorCount = processors,
        TotalMemoryBytes = 8L * 1024 * 1024 * 1024,
        OperatingSystem = "Linux 6.8",
        Runtime = ".NET 10.0.0",
        MachineName = machine,
        ProcessArchitecture = "X64",
    };

    public static RunPlan CosmosPlan(string name, CosmosConnectionMode mode = CosmosConnectionMode.Gateway, int concurrency = 20) => new()
    {
        Name = name,
        Target = new TargetOptions
        {
            Kind = TargetKind.CosmosSql,
            Cosmos = new CosmosOptions { Endpoint = "https://bench.documents.azure.com:443/", ConnectionMode = mode, RequestUnits = 10_000 },
        },
        Load = new LoadOptions { Concurrency = concurrency },
        Stop = new StopOptions { DurationSeconds = 60 },
    };

    /// <summary>A run with its plan, environment, summary (when given) and seconds; returns its id.</summary>
    public static async Task<long> AddRunAsync(
        IDbContextFactory<BenchDbContext> databases,
        RunPlan plan,
        ClientEnvironment? environment,
        RunSummary? summary,
        IEnumerable<RunSecondEntity>? seconds = null,
        RunStatus status = RunStatus.Completed,
        string? targetDescription = null)
    {
        await using var db = await databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = status,
            TargetKind = plan.Target.Kind,
            QueuedAt = Start,
            StartedAt = Start,
            EndedAt = status == RunStatus.Completed ? Start.AddMinutes(1) : null,
            TargetDescription = targetDescription,
            EnvironmentJson = environment is null ? null : JsonSerializer.Serialize(environment, RunPlan.JsonOptions),
            SummaryJson = summary is null ? null : JsonSerializer.Serialize(summary, RunPlan.JsonOptions),
            ElapsedSeconds = summary?.Elapsed.TotalSeconds,
            AverageThroughput = summary?.AverageThroughput,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        foreach (var second in seconds ?? [])
        {
            second.RunId = run.Id;
            db.RunSeconds.Add(second);
        }

        await db.SaveChangesAsync();
        return run.Id;
    }

    /// <summary>Full seconds of a steady run: <paramref name="ok"/> inserts each, the last one partial (half a second).</summary>
    public static IEnumerable<RunSecondEntity> Seconds(int count, long ok, long throttled = 0, double ruPerInsert = 6, double p99 = 40)
    {
        for (var i = 0; i < count; i++)
        {
            var duration = i == count - 1 ? 0.5 : 1;
            var done = (long)(ok * duration);
            yield return new RunSecondEntity
            {
                Index = i,
                ElapsedSeconds = i + duration,
                DurationSeconds = duration,
                Ok = done,
                OkRequests = done,
                Throttled = throttled,
                RequestUnits = done * ruPerInsert,
                LatencyP50Ms = p99 / 4,
                LatencyP99Ms = p99,
                ClosedAt = Start.AddSeconds(i + duration),
            };
        }
    }
}
