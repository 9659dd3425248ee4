using BenchEngine.Running;
using BenchEngine.Targets;
using BenchEngine.Workloads;

namespace Benchmarks;

/// <summary>What the benchmarks share: the local servers tools/bench.sh starts (absent when it does not), the target context
/// with their secrets, the run wrapper, and the plans that insert into Azurite and the Cosmos DB API server.</summary>
internal sealed class BenchmarkHost
{
    public BenchmarkHost(string? tables, string? cosmos)
    {
        Tables = tables;
        Cosmos = cosmos;
        Context = new TargetContext(TimeProvider.System, name => name switch
        {
            "TABLES_CONNECTION_STRING" => Tables,
            "COSMOS_KEY" => CosmosKey,
            _ => null,
        });
    }

    /// <summary>Azurite's connection string (BENCH_TABLES_CONNECTION_STRING), or null.</summary>
    public string? Tables { get; }

    /// <summary>The Cosmos DB API server's endpoint (BENCH_COSMOS_ENDPOINT; Gateway, http), or null.</summary>
    public string? Cosmos { get; }

    /// <summary>The Cosmos DB API server's key: any base64 key of 64 bytes will do.</summary>
    public string CosmosKey { get; } = Convert.ToBase64String(new byte[64]);

    /// <summary>The context every run of the engine is given: the system clock and the local servers' secrets.</summary>
    public TargetContext Context { get; }

    // A run that gives documents up after their throttle retries ends Failed, honestly; the unbounded pattern is measured for
    // exactly that shortfall, so it may.
    public async Task<RunResult> RunAsync(RunPlan plan, bool shortfallExpected = false, BenchmarkRunner? runner = null)
    {
        var result = await (runner ?? new BenchmarkRunner()).RunAsync(plan, Context);
        if (result.Status != RunStatus.Completed && !(shortfallExpected && result.Status == RunStatus.Failed && result.Summary.TotalGivenUp > 0 && result.Summary.TotalErrors == 0))
        {
            throw new InvalidOperationException($"{plan.Name}: {result.Status} {result.FailureReason}");
        }

        return result;
    }

    public static RunPlan TablePlan(string name, int concurrency, long total, int batch = 1, LoadModel model = LoadModel.ClosedLoop) => new()
    {
        Name = name,
        Target = new TargetOptions { Kind = TargetKind.TableStorage, Tables = new TableOptions { TableName = "b" + Guid.NewGuid().ToString("N")[..12] } },
        Workload = batch > 1 ? new WorkloadOptions { Shape = DocumentShape.Flight } : new WorkloadOptions(),
        Load = new LoadOptions { Model = model, Concurrency = concurrency, BatchSize = batch },
        Stop = new StopOptions { TotalDocuments = total },
    };

    public RunPlan CosmosPlan(string name, int concurrency, long total) => new()
    {
        Name = name,
        Target = new TargetOptions
        {
            Kind = TargetKind.CosmosSql,
            Cosmos = new CosmosOptions { Endpoint = Cosmos, ConnectionMode = CosmosConnectionMode.Gateway, LimitToEndpoint = true, Container = "b" + Guid.NewGuid().ToString("N")[..12], RequestUnits = null },
        },
        Load = new LoadOptions { Concurrency = concurrency },
        Stop = new StopOptions { TotalDocuments = total },
    };
}
