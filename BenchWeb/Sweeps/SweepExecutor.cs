using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Administration;
using BenchWeb.Data;
using BenchWeb.Runs;
using BenchWeb.Security;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Sweeps;

/// <summary>Executes a queued sweep: each step becomes an ordinary run (linked to the sweep, audited as a launch) executed
/// inline, one after another on this client — never enqueued, since the sweep's job holds the worker they would wait
/// for. A step spread over agents (a sweep of the number of agents, in shared mode) goes to the other agents, and the sweep
/// waits for it. After each step a series may stop early; at the end each series' knee is found and saved.</summary>
public sealed partial class SweepExecutor(
    IDbContextFactory<BenchDbContext> databases,
    RunService runs,
    RunExecutor executor,
    BenchWeb.Agents.AgentIdentity agent,
    TimeProvider time,
    ILogger<SweepExecutor> logger)
{
    public async Task ExecuteAsync(long sweepId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var started = await db.Sweeps.Where(s => s.Id == sweepId && s.Status == RunStatus.Queued && s.CancelRequestedAt == null).ExecuteUpdateAsync(
            s => s.SetProperty(x => x.Status, RunStatus.Running).SetProperty(x => x.StartedAt, time.GetUtcNow()), cancellationToken);
        if (started == 0)
        {
            return;
        }

        var sweep = await db.Sweeps.AsNoTracking().SingleAsync(s => s.Id == sweepId, cancellationToken);
        var options = sweep.ReadSweep();
        var basePlan = RunPlan.FromJson(sweep.PlanJson);
        var actor = sweep.LaunchedByJson is { } json ? JsonSerializer.Deserialize<Actor>(json, RunPlan.JsonOptions)! : new Actor("system", "BenchWeb", "Admin", "sweep", null);
        var results = new List<SweepStepResult>();
        var status = RunStatus.Completed;
        var notes = new List<string>();
        try
        {
            foreach (var series in options.Steps(basePlan).GroupBy(s => s.Series))
            {
                var inSeries = new List<SweepStepResult>();
                foreach (var step in series)
                {
                    if (await CancelRequestedAsync(sweepId, cancellationToken))
                    {
                        status = RunStatus.Cancelled;
                        break;
                    }

                    var runId = await runs.QueueSweepStepAsync(step.Plan, sweep.ProfileId, sweepId, step.Index, actor, agent.Id, cancellationToken);
                    if (step.Plan.Load.Agents == 1)
                    {
                        await executor.ExecuteAsync(runId, cancellationToken);
                    }
                    else
                    {
                        await WaitForSpreadStepAsync(sweepId, runId, actor, cancellationToken);
                    }

                    var run = await db.Runs.AsNoTracking().SingleAsync(r => r.Id == runId, cancellationToken);
                    var result = SweepStepResult.From(step, run.Status, run.ReadSummary() ?? new RunSummary());
                    inSeries.Add(result);
                    results.Add(result);
                    if (EarlyStop.ShouldStop(inSeries, options.EarlyStop))
                    {
                        notes.Add($"{(step.Series is null ? "" : $"{step.Series}: ")}stopped early after step {step.Index + 1}, throughput no longer improving");
                        break;
                    }
                }

                if (status == RunStatus.Cancelled)
                {
                    break;
                }
            }

            if (status != RunStatus.Cancelled && await CancelRequestedAsync(sweepId, cancellationToken))
            {
                status = RunStatus.Cancelled;
            }
        }
        catch (LaunchesPausedException)
        {
            status = RunStatus.Cancelled;
            notes.Add("an administrator paused launching");
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogFailed(logger, sweepId, ex);
            status = RunStatus.Failed;
            notes.Add(cancellationToken.IsCancellationRequested ? "BenchWeb stopped during the sweep" : $"failed: {ex.Message}");
        }

        var reason = status switch
        {
            RunStatus.Cancelled => $"cancelled after {results.Count} step(s)",
            RunStatus.Failed => $"ended after {results.Count} step(s)",
            _ => $"{results.Count} step(s) ran",
        };
        var knees = KneeDetector.Find(results, options.Knee, options.Setting);
        await db.Sweeps.Where(s => s.Id == sweepId).ExecuteUpdateAsync(
            s => s.SetProperty(x => x.Status, status)
                .SetProperty(x => x.EndedAt, time.GetUtcNow())
                .SetProperty(x => x.StopReason, string.Join("; ", notes.Prepend(reason)))
                .SetProperty(x => x.KneeJson, JsonSerializer.Serialize(knees, RunPlan.JsonOptions)),
            CancellationToken.None);
    }

    /// <summary>Waits for a step that runs on other agents to end; a cancel of the sweep cancels it.</summary>
    private async Task WaitForSpreadStepAsync(long sweepId, long runId, Actor actor, CancellationToken cancellationToken)
    {
        var cancelled = false;
        while (true)
        {
            await using var db = await databases.CreateDbContextAsync(cancellationToken);
            if (await db.Runs.Where(r => r.Id == runId).Select(r => r.Status).SingleAsync(cancellationToken) is not (RunStatus.Queued or RunStatus.Running))
            {
                return;
            }

            if (!cancelled && (cancellationToken.IsCancellationRequested || await CancelRequestedAsync(sweepId, CancellationToken.None)))
            {
                cancelled = true;
                await runs.CancelAsync(runId, actor, CancellationToken.None);
            }

            await Task.Delay(TimeSpan.FromMilliseconds(500), time, CancellationToken.None);
        }
    }

    private async Task<bool> CancelRequestedAsync(long sweepId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Sweeps.Where(s => s.Id == sweepId).Select(s => s.CancelRequestedAt).SingleAsync(cancellationToken) is not null;
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Sweep {SweepId} failed")]
    private static partial void LogFailed(ILogger logger, long sweepId, Exception exception);
}
