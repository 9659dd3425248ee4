using System.Globalization;
using System.Text.Json;
using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Secrets;
using BenchWeb.Guard.Security;
using BenchWeb.Launch;
using BenchWeb.Live;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Execution;

/// <summary>What a run's background job does: take the queued run, execute its plan with the engine, save every
/// second as it closes, and record how it ended. Benchmarks are not idempotent, so a run found already
/// running (its earlier attempt died) is marked interrupted, never executed again.</summary>
public sealed partial class RunExecutor(
    IDbContextFactory<BenchDbContext> databases,
    RunUpdatePublisher publisher,
    SecretStore secrets,
    CsvUploadStore uploads,
    KillSwitch killSwitch,
    EndpointAllowList allowList,
    ExecutingRuns executing,
    BenchmarkRunner runner,
    TimeProvider time,
    IHostApplicationLifetime lifetime,
    AgentIdentity agent,
    ILogger<RunExecutor> logger)
{
    public const string InterruptedByRestart = "BenchWeb stopped while this run was running; the seconds saved until then are kept. Benchmarks are not re-run automatically.";

    public async Task ExecuteAsync(long runId, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
        if (run is null)
        {
            LogMissing(logger, runId);
            return;
        }

        using var activity = RunActivity.Start(run);
        if (run.Status == RunStatus.Running)
        {
            await EndAsync(db, run, RunStatus.Interrupted, "Its job started again while the run was marked running (an earlier attempt died). It was not re-run, so the target was not loaded twice.");
            return;
        }

        // Another instance sharing the database may have paused launching after this run was queued.
        if (await killSwitch.StateAsync(cancellationToken) is { Engaged: true })
        {
            await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Queued).ExecuteUpdateAsync(
                s => s.SetProperty(r => r.Status, RunStatus.Cancelled).SetProperty(r => r.EndedAt, time.GetUtcNow()).SetProperty(r => r.StopReason, RunService.PausedBeforeStart),
                CancellationToken.None);
            await PublishStatusAsync(await db.Runs.AsNoTracking().SingleAsync(r => r.Id == runId, CancellationToken.None), RunService.PausedBeforeStart);
            return;
        }

        // Only a queued run starts; the conditional update loses against a cancel made a moment earlier. The run is this
        // agent's from now on: should the agent stop heartbeating, the others mark it interrupted.
        var started = await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Queued).ExecuteUpdateAsync(
            s => s.SetProperty(r => r.Status, RunStatus.Running).SetProperty(r => r.AgentId, agent.Id), cancellationToken);
        if (started == 0)
        {
            return;
        }

        try
        {
            await ExecuteStartedAsync(db, run, cancellationToken);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Whatever fails once the run is marked running, the run must not stay Running for ever: no job retries it.
            LogRunCrashed(logger, ex, runId);
            await EnsureEndedAsync(runId, $"{ex.GetType().Name}: {ex.Message}");
        }
    }

    // From here on the database is written with CancellationToken.None: a cancel interrupts the load, not the
    // bookkeeping that records it.
    private async Task ExecuteStartedAsync(BenchDbContext db, RunEntity run, CancellationToken cancellationToken)
    {
        var runId = run.Id;
        await db.Entry(run).ReloadAsync(CancellationToken.None);
        run.StartedAt = time.GetUtcNow();
        await db.SaveChangesAsync(CancellationToken.None);
        await PublishStatusAsync(run, null);

        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, lifetime.ApplicationStopping);
        using (executing.Add(runId, stop))
        {
            await ExecuteWithStopAsync(db, run, stop, cancellationToken);
        }
    }

    private async Task ExecuteWithStopAsync(BenchDbContext db, RunEntity run, CancellationTokenSource stop, CancellationToken cancellationToken)
    {
        var runId = run.Id;
        await using var secondsDb = await databases.CreateDbContextAsync(CancellationToken.None);
        var observer = new RunObserver(runId, secondsDb, publisher, time, stop, logger);
        RunResult? result;
        RunPlan? plan;
        string? failure;
        (result, plan, failure) = await RunEngineAsync(run, null, observer, stop.Token);

        // The run's own token may be cancelled by now; recording how it ended must not be.
        db.ChangeTracker.Clear();
        run = await db.Runs.SingleAsync(r => r.Id == runId, CancellationToken.None);
        if (result is null)
        {
            await EndAsync(db, run, RunStatus.Failed, failure);
            return;
        }

        foreach (var missing in observer.Unsaved(result.Seconds))
        {
            db.RunSeconds.Add(RunSecondEntity.From(runId, missing, time.GetUtcNow()));
        }

        if (observer.SlowRequestsIncomplete)
        {
            await SaveSlowRequestsAsync(runId, result);
        }

        run.SummaryJson = JsonSerializer.Serialize(result.Summary, RunPlan.JsonOptions);
        // A run that measured nothing (it failed opening its target) lists no figures: zeros would read as a measurement.
        if (result.Seconds.Count > 0)
        {
            run.ElapsedSeconds = result.Summary.Elapsed.TotalSeconds;
            run.AverageThroughput = result.Summary.AverageThroughput;
            run.P99LatencyMs = result.Summary.Latency.P99Ms;
            run.ThrottledFraction = result.Summary.ThrottledFraction;
        }

        run.StopReason = CapReason(run, result.StopReason);
        run.FirstError = result.FirstError;
        run.AbandonedRequests = result.AbandonedRequests;
        run.TargetDescription = result.TargetDescription;
        run.TargetIsModel = result.TargetIsModel;
        run.EnvironmentJson ??= JsonSerializer.Serialize(result.Environment, RunPlan.JsonOptions);
        run.StartedAt ??= result.StartedAt;
        var status = result.Status;
        var reason = result.FailureReason;
        if (status == RunStatus.Cancelled && run.CancelRequestedAt is null && lifetime.ApplicationStopping.IsCancellationRequested)
        {
            status = RunStatus.Interrupted;
            reason = InterruptedByRestart;
            run.StopReason = "BenchWeb stopped";
        }
        else if (run.Status == RunStatus.Interrupted)
        {
            // Closed meanwhile by another instance that took this agent for lost: that stands, with the figures measured.
            status = RunStatus.Interrupted;
            reason = run.FailureReason;
            run.StopReason = "its agent was taken for lost";
        }

        await JudgeAsync(db, run, plan, status, result.Summary);
        await EndAsync(db, run, status, reason);
    }

    /// <summary>Replaces what the observer saved of the run's slow requests by the engine's final set (a save failed on the
    /// way). A failure here is logged: diagnostics never fail a run.</summary>
    private async Task SaveSlowRequestsAsync(long runId, RunResult result)
    {
        try
        {
            await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
            await db.RunDiagnostics.Where(d => d.RunId == runId).ExecuteDeleteAsync(CancellationToken.None);
            db.RunDiagnostics.AddRange(result.SlowRequests.Select((request, number) => RunDiagnosticEntity.From(runId, 0, number, request)));
            await db.SaveChangesAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogDiagnosticsLost(logger, ex, runId);
        }
    }

    /// <summary>Runs the stored plan of <paramref name="run"/> with the engine, as this installation allows it to run: its
    /// uploaded file looked up, its secrets resolved, every connection checked against the allow-list, the installation's
    /// caps applied; <paramref name="shard"/> (when given) makes the plan one agent's share of it. Never throws: a plan
    /// that cannot run comes back as the failure.</summary>
    internal async Task<(RunResult? Result, RunPlan? Plan, string? Failure)> RunEngineAsync(
        RunEntity run, RunShardEntity? shard, IRunObserver observer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        RunPlan? plan = null;
        try
        {
            plan = RunPlan.FromJson(run.PlanJson);
            // The stored plan names its uploaded file by number; the engine gets the stored path, in memory only.
            var files = await uploads.LookupAsync(plan, CancellationToken.None);
            // The job's one check, of the plan as it runs here (the installation's caps, this agent's share): a run may have
            // waited in the queue, and its file been deleted meanwhile. The engine runs the checked plan without checking again.
            var (executed, invalid) = WebPlanRules.Check(plan, files, resolved => shard is null
                ? WithCaps(resolved, run)
                : WithCaps(resolved, run).ForShard(shard.Index, run.ShardCount));
            if (executed is null)
            {
                return (null, plan, Invalid(invalid));
            }

            // Every connection the targets open is checked against the installation's allow-list: the account
            // endpoint, the table endpoint of a connection string, and whatever the service redirects to.
            var context = new TargetContext(time, await secrets.CreateResolverAsync(run.ProfileId, plan, CancellationToken.None))
            {
                Endpoints = new EndpointPolicy(allowList.Check),
                StartAt = shard is null ? null : run.StartAt,
                Telemetry = new EngineTelemetryTags(run.Id.ToString(CultureInfo.InvariantCulture), agent.Name, shard?.Index ?? 0, run.TargetKind.Name),
            };
            return (await runner.RunAsync(executed.Runnable, context, observer, cancellationToken), plan, null);
        }
        catch (RunPlanValidationException ex)
        {
            // A stored plan that no longer reads, or a check past the one above; what names the stored file is re-worded.
            return (null, plan, Invalid(plan is null ? ex.Errors : WebPlanRules.Sanitize(plan, ex.Errors)));
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogRunCrashed(logger, ex, run.Id);
            return (null, plan, $"{ex.GetType().Name}: {ex.Message}");
        }
    }

    /// <summary>The verdict of the plan's thresholds on how the run ended (nothing when it has none); the caller saves.</summary>
    internal static async Task JudgeAsync(BenchDbContext db, RunEntity run, RunPlan? plan, RunStatus status, RunSummary summary)
    {
        ArgumentNullException.ThrowIfNull(db);
        ArgumentNullException.ThrowIfNull(run);
        if (plan?.Thresholds is not { IsEmpty: false } thresholds)
        {
            return;
        }

        // Only a completed run is a baseline: a failed or cancelled one would make any share easy to reach.
        var baseline = thresholds.BaselineRunId is { } baselineId
            ? await db.Runs.Where(r => r.Id == baselineId && r.Status == RunStatus.Completed).Select(r => r.AverageThroughput).SingleOrDefaultAsync(CancellationToken.None)
            : null;
        var verdict = ThresholdEvaluator.Evaluate(status, summary, thresholds, baseline);
        run.Verdict = verdict.Passed ? "Passed" : "Failed";
        run.VerdictJson = JsonSerializer.Serialize(verdict, RunPlan.JsonOptions);
    }

    private static string Invalid(IEnumerable<FieldError> errors) =>
        $"The plan is not valid: {string.Join("; ", errors.Select(e => $"{e.Field}: {e.Message}"))}";

    /// <summary>The plan as executed: the snapshot (as written) with the installation's caps for the stops it lacks.
    /// The first stop reached ends a run, so a cap only ever shortens it.</summary>
    internal static RunPlan WithCaps(RunPlan plan, RunEntity run)
    {
        if (run.DurationCapSeconds is null && run.DocumentCap is null)
        {
            return plan;
        }

        return plan with
        {
            Stop = plan.Stop with
            {
                DurationSeconds = plan.Stop.DurationSeconds ?? run.DurationCapSeconds,
                TotalDocuments = plan.DocumentLimit is null ? run.DocumentCap : plan.Stop.TotalDocuments,
            },
        };
    }

    /// <summary>A run stopped by a cap says so, rather than the engine's "ran for 3,600 s" the plan never asked for; what
    /// the engine said after that (what landed, what did not) is kept.</summary>
    internal static string CapReason(RunEntity run, string stopReason)
    {
        if (run.DurationCapSeconds is { } seconds
            && After(stopReason, FormattableString.CurrentCulture($"ran for {seconds.ToString(BenchmarkRunner.SecondsFormat, CultureInfo.CurrentCulture)} s")) is { } afterDuration)
        {
            return FormattableString.CurrentCulture($"cut at the installation's maximum run duration, {seconds.ToString(BenchmarkRunner.SecondsFormat, CultureInfo.CurrentCulture)} s (set by an administrator; the plan gave no duration)") + afterDuration;
        }

        if (run.DocumentCap is { } documents
            && (After(stopReason, FormattableString.CurrentCulture($"reached {documents:N0} documents"))
                ?? After(stopReason, FormattableString.CurrentCulture($"took all {documents:N0} documents"))) is { } afterCount)
        {
            return FormattableString.CurrentCulture($"cut at the installation's maximum of {documents:N0} documents (set by an administrator; the plan gave no count)") + afterCount;
        }

        return stopReason;
    }

    /// <summary>What follows <paramref name="opening"/> in the engine's stop reason ("" when that is all of it, "; 4,164
    /// landed, …" or ": 474 landed, …"); null when the reason does not open with it.</summary>
    private static string? After(string stopReason, string opening) =>
        stopReason == opening ? ""
        : stopReason.StartsWith(opening + ";", StringComparison.Ordinal) || stopReason.StartsWith(opening + ":", StringComparison.Ordinal) ? stopReason[opening.Length..]
        : null;

    private async Task EnsureEndedAsync(long runId, string reason)
    {
        await using var db = await databases.CreateDbContextAsync(CancellationToken.None);
        if (await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, CancellationToken.None) is { Status: RunStatus.Running } run)
        {
            await EndAsync(db, run, run.CancelRequestedAt is null ? RunStatus.Failed : RunStatus.Cancelled, reason);
        }
    }

    private async Task EndAsync(BenchDbContext db, RunEntity run, RunStatus status, string? reason)
    {
        // A run that ends here without the engine's result (a failure outside the engine, a job started twice) still
        // has the seconds it saved: their figures, marked partial, rather than none.
        await PartialSummary.FillAsync(db, run, runner.ClientLimits, CancellationToken.None);
        run.Status = status;
        run.FailureReason = reason;
        run.EndedAt = time.GetUtcNow();
        await db.SaveChangesAsync(CancellationToken.None);
        await PublishStatusAsync(run, reason);
    }

    private async Task PublishStatusAsync(RunEntity run, string? message)
    {
        RunActivity.StatusChanged(run.Status);
        try
        {
            await publisher.StatusAsync(new RunStatusChange(run.Id, run.Status, message), CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            LogPublishFailed(logger, ex, run.Id);
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Run {RunId}: the diagnostics of its slowest requests could not be saved; its figures are unaffected")]
    private static partial void LogDiagnosticsLost(ILogger logger, Exception exception, long runId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId} does not exist; its job does nothing")]
    private static partial void LogMissing(ILogger logger, long runId);

    [LoggerMessage(Level = LogLevel.Error, Message = "Run {RunId} failed outside the engine")]
    private static partial void LogRunCrashed(ILogger logger, Exception exception, long runId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Run {RunId}: pushing its status to watchers failed")]
    private static partial void LogPublishFailed(ILogger logger, Exception exception, long runId);
}
