using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Support;

/// <summary>Ended runs of any kind of target written straight into a database, with seconds and a summary as the engine
/// computes them, so pages that read runs can be looked at without waiting for runs to happen.</summary>
internal static class SeededRuns
{
    public static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    /// <summary>A database factory for a dashboard's SQLite file (e.g. one running in its own process).</summary>
    public static IDbContextFactory<BenchDbContext> Databases(string databasePath) => new FileDatabases(databasePath);

    /// <summary>A plan of this kind of target, with the settings a real profile of that kind has.</summary>
    public static RunPlan Plan(TargetKind kind, string name) => kind.Name switch
    {
        "CosmosSql" => new RunPlan
        {
            Name = name,
            Target = new TargetOptions
            {
                Kind = kind,
                Operation = WriteOperation.Upsert,
                Cosmos = new CosmosOptions { Endpoint = "https://bench.documents.azure.com:443/", ConnectionMode = CosmosConnectionMode.Direct, Bulk = true, RequestUnits = 20_000 },
            },
            Load = new LoadOptions { Concurrency = 100 },
            Stop = new StopOptions { DocumentsPerWorker = 10_000 },
        },
        "TableStorage" or "CosmosTable" => new RunPlan
        {
            Name = name,
            Target = new TargetOptions { Kind = kind, Tables = new TableOptions { TableName = "flights" } },
            Workload = new WorkloadOptions
            {
                Shape = DocumentShape.Flight,
                TargetSizeBytes = 1_725,
                PartitionKey = new PartitionKeyOptions { Strategy = PartitionKeyStrategy.FieldValue, Field = "Origin" },
            },
            Load = new LoadOptions { Model = LoadModel.Waves, Concurrency = 10, BatchSize = 100 },
            Stop = new StopOptions { TotalDocuments = 20_000 },
        },
        "NoOp" => new RunPlan
        {
            Name = name,
            Target = new TargetOptions { Kind = kind },
            Load = new LoadOptions { Model = LoadModel.OpenLoop, RatePerSecond = 12_500, Concurrency = 64 },
            Stop = new StopOptions { DurationSeconds = 30 },
        },
        _ => new RunPlan
        {
            Name = name,
            Target = new TargetOptions { Kind = kind, Simulator = new SimulatorOptions { ProvisionedRequestUnits = 400_000, PhysicalPartitions = 40 } },
            Load = new LoadOptions { Concurrency = 32 },
            Stop = new StopOptions { DurationSeconds = 30 },
        },
    };

    /// <summary>The seconds of a steady run: <paramref name="okPerSecond"/> documents each, the last one half a second.</summary>
    public static List<SecondSnapshot> Seconds(int count, long okPerSecond, double ruPerInsert, int batchSize = 1)
    {
        var seconds = new List<SecondSnapshot>();
        for (var i = 0; i < count; i++)
        {
            var duration = i == count - 1 ? 0.5 : 1;
            var ok = (long)(okPerSecond * duration) + (i % 3 * 17);
            seconds.Add(new SecondSnapshot
            {
                Index = i,
                Elapsed = TimeSpan.FromSeconds(i + duration),
                Duration = TimeSpan.FromSeconds(duration),
                Ok = ok,
                OkRequests = ok / batchSize,
                Throttled = i % 4 == 0 ? ok / 90 : 0,
                RequestUnits = ok * ruPerInsert,
                Bytes = ok * 1_725,
                LatencyP50Ms = 8.4 + (i % 5),
                LatencyP95Ms = 41.7 + (i % 7),
                LatencyP99Ms = 123.4 + (i % 11),
                LatencyMaxMs = 1_234.5,
                InFlight = 12,
                ClientCpuPercent = 41 + (i % 9),
            });
        }

        return seconds;
    }

    /// <summary>An ended run of <paramref name="plan"/> with these seconds. Its summary is the engine's (from the seconds and
    /// a latency histogram) unless <paramref name="withSummary"/> is false: a run that ended without one, as a restart
    /// leaves it.</summary>
    public static async Task<long> AddAsync(
        IDbContextFactory<BenchDbContext> databases,
        RunPlan plan,
        IReadOnlyList<SecondSnapshot> seconds,
        RunStatus status = RunStatus.Completed,
        bool withSummary = true,
        string? failureReason = null,
        string? targetDescription = null)
    {
        var kind = plan.Target.Kind;
        var provisioned = (kind.Module as IRequestUnitThroughput)?.PlannedRequestUnits(plan.Target);
        var latency = new LatencyDistribution();
        foreach (var second in seconds)
        {
            for (var i = 0; i < 100; i++)
            {
                latency.RecordMicroseconds((long)(((second.LatencyP50Ms ?? 0) + (i * i * 0.0125)) * 1000));
            }
        }

        var summary = SummaryCalculator.Calculate(seconds, latency, new SummaryOptions
        {
            LatencyIsPerBatch = plan.Load.BatchSize > 1,
            ProvisionedRequestUnitsPerSecond = provisioned,
            StageSeconds = plan.Load.Stages.Select(s => s.DurationSeconds).ToList(),
        });
        await using var db = await databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = status,
            TargetKind = kind,
            QueuedAt = Start,
            StartedAt = Start,
            EndedAt = Start.AddSeconds(seconds.Count + 1),
            TargetDescription = targetDescription ?? kind.DisplayName(),
            TargetIsModel = kind.Module.IsModel,
            ProvisionedRequestUnits = provisioned,
            EnvironmentJson = JsonSerializer.Serialize(new ClientEnvironment { ProcessorCount = 8, MachineName = "bench-vm", Runtime = ".NET 10.0.0", OperatingSystem = "Linux" }, RunPlan.JsonOptions),
            StopReason = status == RunStatus.Completed ? "reached the end of the plan" : null,
            FailureReason = failureReason,
        };
        if (withSummary)
        {
            run.SummaryJson = JsonSerializer.Serialize(summary, RunPlan.JsonOptions);
            run.ElapsedSeconds = summary.Elapsed.TotalSeconds;
            run.AverageThroughput = summary.AverageThroughput;
            run.P99LatencyMs = summary.Latency.P99Ms;
            run.ThrottledFraction = summary.ThrottledFraction;
        }

        db.Runs.Add(run);
        await db.SaveChangesAsync();
        foreach (var second in seconds)
        {
            db.RunSeconds.Add(RunSecondEntity.From(run.Id, second, Start.Add(second.Elapsed)));
        }

        await db.SaveChangesAsync();
        return run.Id;
    }

    private sealed class FileDatabases(string path) : IDbContextFactory<BenchDbContext>
    {
        public BenchDbContext CreateDbContext() => new(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={path}").Options);
    }
}
