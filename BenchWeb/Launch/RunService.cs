using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Fleet;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Secrets;
using BenchWeb.Guard.Security;
using BenchWeb.Jobs;
using BenchWeb.Live;
using BenchWeb.Profiles;
using BenchWeb.Provenance;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Launch;

/// <summary>Launches and cancels runs: the row first (the durable record), then the job. Every way of launching (the
/// pages, the HTTP API) comes through here, so here the installation's rules apply (the kill switch, the limits, the
/// endpoint allow-list) and here launches and cancels are recorded in the audit log.</summary>
public sealed class RunService(
    IDbContextFactory<BenchDbContext> databases,
    IRunJobClient jobs,
    RunUpdatePublisher publisher,
    InstallationSettingsService settings,
    KillSwitch killSwitch,
    SecretStore secrets,
    CsvUploadStore uploads,
    RunOutcomeReader runs,
    ExecutingRuns executing,
    AuditLog audit,
    AgentDirectory agents,
    DistributedRuns distributed,
    Microsoft.Extensions.Options.IOptions<Configuration.BenchWebOptions> options,
    TimeProvider time)
{
    public const string PausedBeforeStart = "cancelled before it started: an administrator paused launching";

    /// <summary>Saves a run's notes and tags (tags normalized, <see cref="RunTags"/>); the run as saved, or null when it no
    /// longer exists.</summary>
    public async Task<RunEntity?> AnnotateAsync(long runId, string? notes, string? tags, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, cancellationToken) is not { } run)
        {
            return null;
        }

        run.Notes = notes;
        run.Tags = RunTags.Normalize(tags);
        await db.SaveChangesAsync(cancellationToken);
        return run;
    }

    /// <summary>Keeps the steady-state window a user chose for a run (null: the detected one again); false when the run
    /// no longer exists.</summary>
    public async Task<bool> ChooseWindowAsync(long runId, (int First, int Last)? chosen, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var updated = await db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(
            s => s.SetProperty(r => r.SteadyStateFirst, chosen == null ? null : chosen.Value.First)
                .SetProperty(r => r.SteadyStateLast, chosen == null ? null : chosen.Value.Last),
            cancellationToken);
        return updated == 1;
    }

    /// <summary>Queues a run of the plan. The plan is checked first (the engine's rules and those of a plan from the web —
    /// its workload file is an uploaded one, never a path —, then the installation's); nothing is queued when it is
    /// invalid or launching is paused.</summary>
    /// <exception cref="RunPlanValidationException">The plan has invalid settings, or settings the installation refuses.</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public Task<long> StartAsync(RunPlan plan, long? profileId, string? presetId, Actor actor, CancellationToken cancellationToken) =>
        LaunchAsync(plan, null, profileId, presetId, RunMetadata.Empty, actor, null, cancellationToken);

    /// <summary>Queues a run of a plan already checked against the rules of a plan from the web (the profile editor keeps
    /// its last edit's, <see cref="WebPlanRules.Check"/>): the plan is not checked again here, only the installation's
    /// rules apply (the kill switch, secrets, limits, allow-list). The job checks the plan once more when it starts: a run
    /// may wait in the queue, and its file be deleted meanwhile.</summary>
    /// <exception cref="RunPlanValidationException">The plan has settings the installation refuses.</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public Task<long> StartAsync(CheckedWebPlan plan, long? profileId, string? presetId, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        return LaunchAsync(plan.Given, plan, profileId, presetId, RunMetadata.Empty, actor, null, cancellationToken);
    }

    /// <summary>Queues a run of the plan that keeps where it came from (<paramref name="metadata"/>: a pipeline's commit,
    /// branch, build…); see the overload without it. Metadata out of bounds is refused like an invalid setting, each
    /// problem on its field (<c>Metadata.commit</c>), and nothing is queued.</summary>
    /// <exception cref="RunPlanValidationException">The plan has invalid settings, or settings the installation refuses, or the
    /// metadata is out of bounds.</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public Task<long> StartAsync(RunPlan plan, long? profileId, string? presetId, RunMetadata metadata, Actor actor, CancellationToken cancellationToken) =>
        LaunchAsync(plan, null, profileId, presetId, metadata, actor, null, cancellationToken);

    /// <summary>Checks a plan already checked against the rules of a plan from the web the way a launch does (the kill
    /// switch, secrets, the installation's rules) without launching it: a sweep checks every step before it starts.</summary>
    /// <exception cref="RunPlanValidationException">The plan has settings the installation refuses.</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public async Task CheckLaunchAsync(CheckedWebPlan plan, long? profileId, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        await CheckAsync(plan.Given, plan, profileId, cancellationToken);
    }

    /// <summary>Saves a sweep's step as a queued run linked to the sweep, and audits it as a launch, without a job: the
    /// sweep's job executes it inline (<see cref="RunExecutor.ExecuteAsync"/>), on the same client as the other steps.</summary>
    /// <remarks>A step spread over agents (a sweep of the number of agents) is queued to its agents like any such run, on
    /// agents other than <paramref name="sweepAgent"/>, whose one worker runs the sweep itself.</remarks>
    internal Task<long> QueueSweepStepAsync(RunPlan plan, long? profileId, long sweepId, int step, RunMetadata metadata, Actor actor, string sweepAgent, CancellationToken cancellationToken) =>
        LaunchAsync(plan, null, profileId, null, metadata, actor, (sweepId, step, sweepAgent), cancellationToken);

    /// <summary>The launch's checks: the kill switch, the plan's rules (unless <paramref name="checkedPlan"/> says they
    /// passed already), then the secrets, the baseline run (<see cref="BaselineRule"/>) and the installation's rules.</summary>
    private async Task<(IReadOnlyDictionary<string, Uri> SecretEndpoints, LaunchRules Rules)> CheckAsync(
        RunPlan plan, CheckedWebPlan? checkedPlan, long? profileId, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (await killSwitch.StateAsync(cancellationToken) is { Engaged: true } paused)
        {
            throw new LaunchesPausedException(paused);
        }

        if (checkedPlan is null && await uploads.ValidateAsync(plan, cancellationToken) is { Count: > 0 } errors)
        {
            throw new RunPlanValidationException(errors);
        }

        // A secret the run could not read (no stored one, an environment variable the setting may not name or that is bound
        // to another server) fails now, on its field, beside what the installation's rules refuse.
        var unreadable = secrets.CheckSecretNames(plan, (_, name) => profileId is { } own && SecretStore.BelongsTo(name, own));
        var secretEndpoints = await secrets.EndpointsAsync(plan, profileId, cancellationToken);
        var rules = await settings.RulesAsync(cancellationToken);
        // A baseline run that does not exist (or measured nothing) is refused now, not once the run has ended without a verdict.
        var baseline = await BaselineRule.CheckAsync(runs, plan, cancellationToken);
        if (unreadable.Concat(baseline).Concat(rules.Check(plan, secretEndpoints)).ToList() is { Count: > 0 } refused)
        {
            throw new RunPlanValidationException(refused);
        }

        return (secretEndpoints, rules);
    }

    private async Task<long> LaunchAsync(
        RunPlan plan, CheckedWebPlan? checkedPlan, long? profileId, string? presetId, RunMetadata metadata, Actor actor, (long Id, int Step, string Agent)? sweep, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(metadata);
        ArgumentNullException.ThrowIfNull(actor);
        IReadOnlyDictionary<string, Uri> secretEndpoints;
        LaunchRules rules;
        try
        {
            if (metadata.Validate() is { Count: > 0 } metadataErrors)
            {
                throw new RunPlanValidationException(metadataErrors);
            }

            (secretEndpoints, rules) = await CheckAsync(plan, checkedPlan, profileId, cancellationToken);
        }
        catch (Exception ex) when (ex is RunPlanValidationException or LaunchesPausedException)
        {
            // A refused launch is recorded too: an aim at a host off the allow-list, over a limit, or with a key stored for another server.
            var subject = sweep is { } step ? $"step {step.Step + 1} of sweep #{step.Id}" : "a run";
            await audit.RecordAsync(actor, AuditActions.RunRefused, subject, $"{Origin(profileId, presetId, plan.Name)}: {RefusalText(ex)}", AuditLog.EndpointOf(plan, null), CancellationToken.None);
            throw;
        }

        var (durationCap, documentCap) = rules.Limits.CapsFor(plan);
        var spreadOver = await AgentsForAsync(plan, sweep?.Agent, cancellationToken);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = new RunEntity
        {
            ProfileId = profileId,
            PresetId = presetId,
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = RunStatus.Queued,
            TargetKind = plan.Target.Kind,
            QueuedAt = time.GetUtcNow(),
            DurationCapSeconds = durationCap,
            DocumentCap = documentCap,
            SweepId = sweep?.Id,
            SweepStep = sweep?.Step,
            MetadataJson = metadata.ToStored(),
        };
        if (spreadOver.Count > 1)
        {
            run.ShardCount = spreadOver.Count;
            run.StartAt = time.GetUtcNow() + TimeSpan.FromSeconds(options.Value.Agent.StartLeadSeconds);
            run.Shards.AddRange(spreadOver.Select((agent, index) => new RunShardEntity
            {
                Index = index,
                AgentId = agent.Agent.Id,
                AgentName = agent.Agent.Name,
                Status = RunStatus.Queued,
            }));
        }

        db.Runs.Add(run);
        await db.SaveChangesAsync(cancellationToken);

        // The kill switch may have been engaged since the check above. Its sweep cancels every run saved before it; a
        // run saved after it finds it engaged here. Either way, nothing launched slips past a pause.
        if (await killSwitch.StateAsync(CancellationToken.None) is { Engaged: true } pausedMeanwhile)
        {
            await db.Runs.Where(r => r.Id == run.Id && r.Status == RunStatus.Queued).ExecuteUpdateAsync(
                s => s.SetProperty(r => r.Status, RunStatus.Cancelled).SetProperty(r => r.EndedAt, time.GetUtcNow()).SetProperty(r => r.StopReason, PausedBeforeStart),
                CancellationToken.None);
            throw new LaunchesPausedException(pausedMeanwhile);
        }

        audit.Append(db, actor, AuditActions.RunLaunched, $"run #{run.Id}", Describe(plan, profileId, presetId, durationCap, documentCap), AuditLog.EndpointOf(plan, secretEndpoints));
        if (sweep is not null && run.ShardCount == 1)
        {
            await db.SaveChangesAsync(CancellationToken.None);
            return run.Id;
        }

        try
        {
            if (run.ShardCount == 1)
            {
                run.JobId = await jobs.EnqueueAsync(run.Id, CancellationToken.None);
            }

            // Each shard waits in the queue of its own agent.
            foreach (var shard in run.Shards)
            {
                shard.JobId = await jobs.EnqueueShardAsync(run.Id, shard.Index, AgentEntity.QueueOf(shard.AgentId), CancellationToken.None);
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The row stays, saying why it never ran, rather than waiting in Queued for a job that does not exist.
            run.Status = RunStatus.Failed;
            run.FailureReason = $"The run could not be queued: {ex.Message}";
            run.EndedAt = time.GetUtcNow();
            foreach (var shard in run.Shards.Where(s => s.JobId is null))
            {
                shard.Status = RunStatus.Failed;
                shard.FailureReason = "never queued";
            }
        }

        await db.SaveChangesAsync(CancellationToken.None);

        // A cancel made before the job's id was saved could not reach the job; it is passed on now.
        if (await db.Runs.Where(r => r.Id == run.Id).Select(r => r.CancelRequestedAt).SingleAsync(CancellationToken.None) is not null)
        {
            foreach (var jobId in run.Shards.Select(s => s.JobId).Append(run.JobId).OfType<string>())
            {
                await jobs.CancelAsync(jobId, CancellationToken.None);
            }
        }

        return run.Id;
    }

    /// <summary>Cancels a queued run at once, or asks a running one to stop: its load stops within about a
    /// second and everything measured is kept. Returns false when the run has already ended.</summary>
    public Task<bool> CancelAsync(long runId, Actor actor, CancellationToken cancellationToken) =>
        CancelAsync(runId, actor, null, cancellationToken);

    /// <summary>The kill switch: pauses launching (stored, so it outlasts a restart), then cancels every queued and
    /// running run the way a user's cancel does, so each ends Cancelled and keeps its seconds.</summary>
    /// <returns>The runs cancelled.</returns>
    public async Task<IReadOnlyList<long>> StopAllAsync(Actor actor, string? reason, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        var state = await killSwitch.EngageAsync(actor, reason, cancellationToken);
        List<long> active;
        await using (var db = await databases.CreateDbContextAsync(cancellationToken))
        {
            // Queued runs first: a running run stops at once, and its worker must find nothing left to start.
            active = await db.Runs.Where(r => r.Status == RunStatus.Queued || r.Status == RunStatus.Running)
                .OrderBy(r => r.Status == RunStatus.Running).ThenBy(r => r.Id).Select(r => r.Id).ToListAsync(cancellationToken);
        }

        var why = state.Reason is { } said ? $"by the kill switch: {said}" : "by the kill switch";
        var cancelled = new List<long>();
        foreach (var id in active)
        {
            // Every run is asked to stop even if this request is abandoned half way: a kill switch that stops half the runs would be worse.
            if (await CancelAsync(id, actor, why, CancellationToken.None))
            {
                cancelled.Add(id);
            }
        }

        return cancelled;
    }

    private async Task<bool> CancelAsync(long runId, Actor actor, string? why, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var run = await db.Runs.SingleOrDefaultAsync(r => r.Id == runId, cancellationToken);
        if (run is null || !run.IsActive)
        {
            return false;
        }

        run.CancelRequestedAt = time.GetUtcNow();
        var wasRunning = run.Status == RunStatus.Running;
        var plan = TryRead(run.PlanJson);
        audit.Append(db, actor, AuditActions.RunCancelled, $"run #{runId}",
            $"{(wasRunning ? "while running" : "while queued")}{(why is null ? "" : $", {why}")}; {Origin(run.ProfileId, run.PresetId, run.ProfileName)}",
            plan is null ? null : AuditLog.EndpointOf(plan, await secrets.EndpointsAsync(plan, run.ProfileId, cancellationToken)));
        await db.SaveChangesAsync(cancellationToken);

        var dequeued = await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Queued)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Cancelled), cancellationToken);
        if (dequeued == 1)
        {
            // No shard has started: none will.
            await db.RunShards.Where(s => s.RunId == runId && s.Status == RunStatus.Queued).ExecuteUpdateAsync(
                s => s.SetProperty(x => x.Status, RunStatus.Cancelled).SetProperty(x => x.StopReason, "cancelled before it started"), cancellationToken);
            await db.Entry(run).ReloadAsync(cancellationToken);
            run.EndedAt = time.GetUtcNow();
            run.StopReason = "cancelled before it started";
            await db.SaveChangesAsync(cancellationToken);
            await publisher.StatusAsync(new RunStatusChange(runId, RunStatus.Cancelled, run.StopReason), cancellationToken);
        }

        // A run this process executes stops at once, whatever it is doing (opening its target included).
        executing.Stop(runId);

        // Through the job scheduler too: a waiting job leaves the queue, an executing one has its token signalled.
        // The run row's cancel request above reaches the run even where the scheduler cannot (the job just ended).
        // The job's id is read after the request is saved: a launch saving it meanwhile sees the request instead.
        if (await db.Runs.Where(r => r.Id == runId).Select(r => r.JobId).SingleAsync(cancellationToken) is { } jobId)
        {
            await jobs.CancelAsync(jobId, cancellationToken);
        }

        foreach (var shardJob in await db.RunShards.Where(s => s.RunId == runId && s.JobId != null).Select(s => s.JobId!).ToListAsync(cancellationToken))
        {
            await jobs.CancelAsync(shardJob, cancellationToken);
        }

        // A shard whose job was still waiting never starts now (its job left the queue, or finds the run cancelled): it is
        // closed here, so the run ends once its running shards have.
        if (await db.RunShards.Where(s => s.RunId == runId && s.Status == RunStatus.Queued).ExecuteUpdateAsync(s => s
                .SetProperty(x => x.Status, RunStatus.Cancelled).SetProperty(x => x.StopReason, "cancelled before it started").SetProperty(x => x.EndedAt, time.GetUtcNow()),
                CancellationToken.None) > 0)
        {
            await distributed.FinishIfDoneAsync(runId, CancellationToken.None);
        }

        return true;
    }

    /// <summary>The agents a run is spread over: none for a run on one agent (the common queue; whichever agent is free
    /// takes it); otherwise the plan's number of agents alive now, the least busy first.</summary>
    /// <exception cref="RunPlanValidationException">The plan asks for more agents than are alive, or for several in embedded mode.</exception>
    private async Task<IReadOnlyList<AgentView>> AgentsForAsync(RunPlan plan, string? busyAgent, CancellationToken cancellationToken)
    {
        var wanted = plan.Load.Agents;
        if (wanted == 1)
        {
            return [];
        }

        if (options.Value.Mode != Configuration.DeploymentMode.Shared)
        {
            throw new RunPlanValidationException([new FieldError(PlanSettingsCatalog.Agents.Path,
                "Spreading a run over agents needs shared mode (BenchWeb:Mode = Shared, several instances on PostgreSQL and Redis); this installation is one instance: set 1.")]);
        }

        var alive = (await agents.AliveAsync(cancellationToken)).Where(a => a.Agent.Id != busyAgent).ToList();
        var count = wanted == LoadOptions.AllAgents ? alive.Count : wanted;
        if (alive.Count == 0 || count > alive.Count)
        {
            throw new RunPlanValidationException([new FieldError(PlanSettingsCatalog.Agents.Path,
                $"{(wanted == LoadOptions.AllAgents ? "Every agent" : $"{wanted:N0} agents")} asked for, {alive.Count:N0} alive now (see the Agents page).")]);
        }

        if (plan.Load.Concurrency < count)
        {
            throw new RunPlanValidationException([new FieldError(PlanSettingsCatalog.Agents.Path,
                $"Each of the {count:N0} agents needs at least one worker: set the concurrency to at least {count:N0}.")]);
        }

        return count == 1 ? [] : [.. alive.Take(count)];
    }


    private static string Describe(RunPlan plan, long? profileId, string? presetId, double? durationCap, long? documentCap)
    {
        var module = plan.Target.Kind.Module;
        // The plan's own stop rule first; an installation's cap, applied where the plan set no bound, after it as what it is.
        var stop = new List<string> { $"stop rule: {PlanText.Stop(plan)}" };
        if (durationCap is { } seconds)
        {
            stop.Add(FormattableString.Invariant($"the installation caps it at {seconds:N0} s"));
        }

        if (documentCap is { } documents)
        {
            stop.Add($"the installation caps it at {PlanText.Count(documents, module.Unit)}");
        }

        var secret = string.Concat(module.Fields.Where(f => f.Input == TargetInput.Secret)
            .Select(f => $"; {f.Label.ToLowerInvariant()} “{TargetSettings.Text(plan.Target, f.Path)}”"));
        return $"{Origin(profileId, presetId, plan.Name)}; {module.DisplayName}{secret}; {string.Join("; ", stop)}";
    }

    /// <summary>Why a launch was refused, as the audit log records it: each refused field and its reason, or the pause.</summary>
    internal static string RefusalText(Exception refusal) => refusal switch
    {
        RunPlanValidationException invalid => string.Join("; ", invalid.Errors.Select(e => $"{e.Field}: {e.Message}")),
        LaunchesPausedException paused => paused.State.Message,
        _ => refusal.Message,
    };

    private static string Origin(long? profileId, string? presetId, string name) =>
        profileId is { } id ? $"of profile #{id} “{name}”"
        : presetId is { } preset ? $"of preset {preset} “{name}”"
        : $"of the plan “{name}”";

    private static RunPlan? TryRead(string json)
    {
        try
        {
            return RunPlan.FromJson(json);
        }
        catch (RunPlanValidationException)
        {
            return null;
        }
    }
}
