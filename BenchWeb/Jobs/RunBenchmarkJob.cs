using BenchWeb.Runs;
using Quartz;

namespace BenchWeb.Jobs;

/// <summary>The background job that executes one run. Never retried: re-running a benchmark would load a paid
/// account twice; <see cref="RunExecutor"/> marks a run it finds already running as interrupted instead.</summary>
[DisallowConcurrentExecution]
public sealed class RunBenchmarkJob(RunExecutor executor) : IJob
{
    public const string RunIdKey = "runId";

    public static JobKey KeyFor(long runId) => new($"run-{runId}", "benchmarks");

    public Task Execute(IJobExecutionContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return executor.ExecuteAsync(context.MergedJobDataMap.GetLong(RunIdKey), context.CancellationToken);
    }
}
