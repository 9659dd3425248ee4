using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Security;
using BenchWeb.Launch;
using BenchWeb.Live;
using BenchWeb.Provenance;
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
    BenchWeb.Execution.AgentIdentity agent,
    Live.RunUpdatePublisher publisher,
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

        publisher.SweepChanged(sweepId);
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

                    var result = await RunStepAsync(sweep, step, options, actor, null, cancellationToken);
                    inSeries.Add(result);
                    results.Add(result);
                    status = await ReRunWhileNeededAsync(sweep, series, options, actor, inSeries, results, seriesEnded: false, cancellationToken);
                    if (status == RunStatus.Cancelled)
                    {
                        break;
                    }

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

                // Its last step, or the one it stopped early at, has no next step to confirm a crossing: a re-run does.
                status = await ReRunWhileNeededAsync(sweep, series, options, actor, inSeries, results, seriesEnded: true, cancellationToken);
                if (status == RunStatus.Cancelled)
                {
                    break;
                }
            }

            if (status != RunStatus.Cancelled && await CancelRequestedAsync(sweepId, cancellationToken))
            {
                status = RunStatus.Cancelled;
            }

            notes.AddRange(results.Where(r => r.IsReRun).Select(r => $"step {r.Index + 1} re-run: {r.ReRunReason}"));
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

        var ran = results.Count(r => !r.IsReRun);
        var reRuns = results.Count - ran;
        var steps = ran == 1 ? "1 step" : $"{ran} steps";
        var reason = status switch
        {
            RunStatus.Cancelled => $"cancelled after {steps}",
            RunStatus.Failed => $"ended after {steps}",
            _ => $"{steps} ran",
        } + (reRuns == 0 ? "" : reRuns == 1 ? ", 1 re-run" : $", {reRuns} re-runs");
        var knees = KneeDetector.Find(results, options.Knee, options.Setting);
        await db.Sweeps.Where(s => s.Id == sweepId).ExecuteUpdateAsync(
            s => s.SetProperty(x => x.Status, status)
                .SetProperty(x => x.EndedAt, time.GetUtcNow())
                .SetProperty(x => x.StopReason, string.Join("; ", notes.Prepend(reason)))
                .SetProperty(x => x.KneeJson, JsonSerializer.Serialize(knees, RunPlan.JsonOptions)),
            CancellationToken.None);
        publisher.SweepChanged(sweepId);
    }

    /// <summary>Re-runs the steps of a series whose crossing of the knee rule the next step did not confirm (one re-run each,
    /// linked to the sweep like any step) until none is left; Cancelled when a cancel came first.</summary>
    private async Task<RunStatus> ReRunWhileNeededAsync(
        SweepEntity sweep, IEnumerable<SweepStep> series, SweepOptions options, Actor actor, List<SweepStepResult> inSeries, List<SweepStepResult> results, bool seriesEnded, CancellationToken cancellationToken)
    {
        while (KneeDetector.NextReRun(inSeries, options.Knee, seriesEnded, options.Setting) is { } reRun)
        {
            if (await CancelRequestedAsync(sweep.Id, cancellationToken))
            {
                return RunStatus.Cancelled;
            }

            var step = series.Single(s => s.Index == reRun.Index);
            var result = await RunStepAsync(sweep, step, options, actor, reRun.Reason, cancellationToken);
            inSeries.Add(result);
            results.Add(result);
        }

        return RunStatus.Completed;
    }

    /// <summary>Runs one step (or its re-run, when <paramref name="reRunReason"/> is given) as an ordinary run linked to the
    /// sweep, and reads its figures back with its seconds, which the knee judges the steady window on.</summary>
    private async Task<SweepStepResult> RunStepAsync(SweepEntity sweep, SweepStep step, SweepOptions options, Actor actor, string? reRunReason, CancellationToken cancellationToken)
    {
        var plan = reRunReason is null ? step.Plan : step.Plan with { Name = SweepOptions.ReRunName(step.Plan.Name) };
        var runId = await runs.QueueSweepStepAsync(plan, sweep.ProfileId, sweep.Id, step.Index, RunMetadata.FromStored(sweep.MetadataJson), actor, agent.Id, cancellationToken);
        publisher.SweepChanged(sweep.Id);
        if (plan.Load.Agents == 1)
        {
            await executor.ExecuteAsync(runId, cancellationToken);
        }
        else
        {
            await WaitForSpreadStepAsync(sweep.Id, runId, actor, cancellationToken);
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.AsNoTracking().SingleAsync(r => r.Id == runId, cancellationToken);
        var seconds = await db.RunSeconds.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync(cancellationToken);
        var result = SweepStepResult.From(step, run.Status, run.ReadSummary() ?? new RunSummary(), [.. seconds.Select(s => s.ToSnapshot())], options.Knee);
        publisher.SweepChanged(sweep.Id);
        return reRunReason is null ? result : result with { IsReRun = true, ReRunReason = reRunReason };
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
