using BenchEngine.Running;
using BenchWeb.Data;
using Microsoft.EntityFrameworkCore;
using BenchWeb.Execution;

namespace BenchWeb.Fleet;

/// <summary>At start-up: brings the database schema up to date, then, in embedded mode, closes runs a previous process
/// left open. Runs left running become interrupted and keep their saved seconds; queued runs whose jobs lived in the
/// previous process's in-memory queue are closed too rather than started unannounced. In shared mode the other instances'
/// runs are theirs: queued jobs wait in the shared storage, and a run is interrupted only when its agent stops
/// heartbeating (<see cref="RunOwnership"/>). Every ended run that kept seconds but has no summary gets one computed
/// from them (<see cref="PartialSummary"/>).</summary>
public sealed partial class RunRecoveryService(
    IDbContextFactory<BenchDbContext> databases,
    Microsoft.Extensions.Options.IOptions<Configuration.BenchWebOptions> options,
    TimeProvider time,
    Microsoft.Extensions.Options.IOptions<BenchEngine.Metrics.ClientLimits> clientLimits,
    ILogger<RunRecoveryService> logger) : IHostedService
{
    public const string NeverStarted = "BenchWeb stopped before this run's turn came; it never started. Launch it again.";

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        await db.Database.MigrateAsync(cancellationToken);
        var dataSource = db.Database.GetDbConnection().DataSource;
        LogDatabase(logger, dataSource);

        var open = options.Value.Mode == Configuration.DeploymentMode.Shared
            ? []
            : await db.Runs.Where(r => r.Status == RunStatus.Running || r.Status == RunStatus.Queued).ToListAsync(cancellationToken);
        foreach (var run in open)
        {
            run.FailureReason = run.Status == RunStatus.Running ? RunExecutor.InterruptedByRestart : NeverStarted;
            run.StopReason = "BenchWeb stopped";
            run.Status = RunStatus.Interrupted;
            run.EndedAt = time.GetUtcNow();
        }

        // A sweep's job died with the process: its remaining steps are not run (a benchmark is never re-run on its own).
        var openSweeps = options.Value.Mode == Configuration.DeploymentMode.Shared
            ? []
            : await db.Sweeps.Where(s => s.Status == RunStatus.Running || s.Status == RunStatus.Queued).ToListAsync(cancellationToken);
        foreach (var sweep in openSweeps)
        {
            sweep.StopReason = sweep.Status == RunStatus.Running ? "BenchWeb stopped during the sweep; its remaining steps were not run" : NeverStarted;
            sweep.Status = RunStatus.Failed;
            sweep.EndedAt = time.GetUtcNow();
        }

        await db.SaveChangesAsync(cancellationToken);
        if (open.Count > 0)
        {
            LogRecovered(logger, open.Count);
        }

        // The runs just interrupted, and any an earlier version left without figures.
        if (await PartialSummary.FillMissingAsync(db, clientLimits.Value, cancellationToken) is > 0 and var summarised)
        {
            await db.SaveChangesAsync(cancellationToken);
            LogSummarised(logger, summarised);
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(Level = LogLevel.Information, Message = "Runs and profiles are kept in {DataSource}")]
    private static partial void LogDatabase(ILogger logger, string dataSource);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} run(s) left open by the previous process are now marked interrupted")]
    private static partial void LogRecovered(ILogger logger, int count);

    [LoggerMessage(Level = LogLevel.Information, Message = "{Count} ended run(s) without a summary got one from their saved seconds (partial, without latency percentiles)")]
    private static partial void LogSummarised(ILogger logger, int count);
}
