using System.Text.Json;
using BenchEngine.Running;
using BenchEngine.Sweeps;
using BenchWeb.Data;
using BenchWeb.Execution;
using BenchWeb.Guard.Administration;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using BenchWeb.Jobs;
using BenchWeb.Launch;
using BenchWeb.Provenance;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Sweeps;

/// <summary>Launches and cancels sweeps: every step is checked the way a run's launch is (so a sweep cannot do what a
/// run may not), the sweep is saved, then one job runs its steps one after another (<see cref="SweepExecutor"/>).</summary>
public sealed class SweepService(
    IDbContextFactory<BenchDbContext> databases,
    IRunJobClient jobs,
    RunService runs,
    CsvUploadStore uploads,
    AuditLog audit,
    BenchWeb.Fleet.AgentDirectory directory,
    Live.RunUpdatePublisher publisher,
    Microsoft.Extensions.Options.IOptions<Configuration.BenchWebOptions> options,
    TimeProvider time)
{
    /// <summary>Queues a sweep of <paramref name="basePlan"/> that keeps nothing of where it came from.</summary>
    /// <exception cref="RunPlanValidationException">The sweep or one of its steps is invalid, or refused by the installation.</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public Task<long> StartAsync(RunPlan basePlan, SweepOptions sweep, long? profileId, Actor actor, CancellationToken cancellationToken) =>
        StartAsync(basePlan, sweep, profileId, RunMetadata.Empty, actor, cancellationToken);

    /// <summary>Queues a sweep of <paramref name="basePlan"/> whose steps' runs keep <paramref name="metadata"/> (a pipeline's
    /// commit, branch, build…).</summary>
    /// <exception cref="RunPlanValidationException">The sweep or one of its steps is invalid, or refused by the installation
    /// (the errors name the field, <c>Sweep.Values[2]</c> for a step).</exception>
    /// <exception cref="LaunchesPausedException">An administrator has paused launching.</exception>
    public async Task<long> StartAsync(RunPlan basePlan, SweepOptions sweep, long? profileId, RunMetadata metadata, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(basePlan);
        ArgumentNullException.ThrowIfNull(sweep);
        ArgumentNullException.ThrowIfNull(metadata);
        ArgumentNullException.ThrowIfNull(actor);
        // Each step's plan is checked once, as a plan from the web (its file an uploaded one); below, only the launch's
        // other checks (the installation's rules, the agents) apply to it.
        var files = await uploads.LookupAsync(basePlan, cancellationToken);
        var (checkedSteps, stepErrors) = sweep.Check(basePlan, plan => WebPlanRules.Check(plan, files));
        if (stepErrors.Concat(metadata.Validate()).ToList() is { Count: > 0 } invalid)
        {
            throw new RunPlanValidationException(invalid);
        }

        var byStep = new List<(string, IReadOnlyList<FieldError>)>();
        foreach (var step in sweep.Steps(basePlan))
        {
            var field = $"Sweep.Values[{step.Index % sweep.Values.Count}]";
            if (step.Plan.Load.Agents != 1 && await SpreadStepProblemAsync(step.Plan.Load.Agents, cancellationToken) is { } problem)
            {
                byStep.Add((field, [new FieldError("Load.Agents", problem)]));
                continue;
            }

            try
            {
                await runs.CheckLaunchAsync(checkedSteps[step.Index], profileId, cancellationToken);
                byStep.Add((field, []));
            }
            catch (RunPlanValidationException ex)
            {
                byStep.Add((field, ex.Errors));
            }
            catch (LaunchesPausedException ex)
            {
                await RecordRefusalAsync(basePlan, sweep, actor, ex);
                throw;
            }
        }

        // A problem every step has (an endpoint off the allow-list) is keyed by its own field; one of some steps by the step.
        if (SweepOptions.KeyStepErrors(byStep) is { Count: > 0 } errors)
        {
            var refused = new RunPlanValidationException([.. errors.Distinct()]);
            await RecordRefusalAsync(basePlan, sweep, actor, refused);
            throw refused;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var entity = new SweepEntity
        {
            ProfileId = profileId,
            Name = basePlan.Name,
            PlanJson = basePlan.ToJson(),
            SweepJson = JsonSerializer.Serialize(sweep, RunPlan.JsonOptions),
            Status = RunStatus.Queued,
            QueuedAt = time.GetUtcNow(),
            LaunchedByJson = JsonSerializer.Serialize(actor, RunPlan.JsonOptions),
            MetadataJson = metadata.ToStored(),
        };
        db.Sweeps.Add(entity);
        await db.SaveChangesAsync(cancellationToken);
        audit.Append(db, actor, AuditActions.SweepLaunched, $"sweep #{entity.Id}",
            $"{SweepOptions.Label(sweep.Setting)} over {string.Join(", ", sweep.Values)}{(sweep.SeriesSetting is { } series ? $", per {SweepOptions.Label(series)} ({string.Join(", ", sweep.SeriesValues)})" : "")}; {sweep.Steps(basePlan).Count} steps of \"{basePlan.Name}\"");
        try
        {
            entity.JobId = await jobs.EnqueueSweepAsync(entity.Id, CancellationToken.None);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            entity.Status = RunStatus.Failed;
            entity.StopReason = $"The sweep could not be queued: {ex.Message}";
            entity.EndedAt = time.GetUtcNow();
        }

        await db.SaveChangesAsync(CancellationToken.None);
        return entity.Id;
    }

    /// <summary>Cancels a sweep: a queued one at once; a running one stops its current step (which keeps what it measured)
    /// and starts no further step. Returns false when the sweep has already ended.</summary>
    /// <summary>Why a step over <paramref name="agents"/> agents cannot run (null when it can): it needs shared mode, and
    /// that many agents alive besides the one that will run the sweep itself.</summary>
    private async Task<string?> SpreadStepProblemAsync(int agents, CancellationToken cancellationToken)
    {
        if (options.Value.Mode != Configuration.DeploymentMode.Shared)
        {
            return "spreading a step over agents needs shared mode; this installation is one instance: set 1.";
        }

        var free = (await directory.AliveAsync(cancellationToken)).Count - 1;
        return agents == BenchEngine.Running.LoadOptions.AllAgents ? (free < 1 ? "no agent is free besides the one that runs the sweep." : null)
            : agents > free ? $"{agents:N0} agents asked for; {free:N0} alive besides the one that runs the sweep (see the Agents page)."
            : null;
    }

    public async Task<bool> CancelAsync(long sweepId, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var sweep = await db.Sweeps.SingleOrDefaultAsync(s => s.Id == sweepId, cancellationToken);
        if (sweep is null || !sweep.IsActive)
        {
            return false;
        }

        // The request first: the sweep's job reads it before each step, so no step starts after this.
        sweep.CancelRequestedAt = time.GetUtcNow();
        audit.Append(db, actor, AuditActions.SweepCancelled, $"sweep #{sweepId}", sweep.Status == RunStatus.Running ? "while running" : "while queued");
        await db.SaveChangesAsync(cancellationToken);

        var dequeued = await db.Sweeps.Where(s => s.Id == sweepId && s.Status == RunStatus.Queued).ExecuteUpdateAsync(
            s => s.SetProperty(x => x.Status, RunStatus.Cancelled).SetProperty(x => x.EndedAt, time.GetUtcNow()).SetProperty(x => x.StopReason, "cancelled before it started"),
            cancellationToken);
        if (dequeued == 1 && sweep.JobId is { } jobId)
        {
            await jobs.CancelAsync(jobId, cancellationToken);
        }

        // The step running stops as a cancelled run does, keeping its seconds.
        foreach (var runId in await db.Runs.Where(r => r.SweepId == sweepId && (r.Status == RunStatus.Queued || r.Status == RunStatus.Running)).Select(r => r.Id).ToListAsync(cancellationToken))
        {
            await runs.CancelAsync(runId, actor, cancellationToken);
        }

        publisher.SweepChanged(sweepId);
        return true;
    }

    /// <summary>A sweep refused before it started is recorded, with each refused step's reason.</summary>
    private Task RecordRefusalAsync(RunPlan basePlan, SweepOptions sweep, Actor actor, Exception refusal) =>
        audit.RecordAsync(actor, AuditActions.SweepRefused, "a sweep",
            $"{SweepOptions.Label(sweep.Setting)} over {string.Join(", ", sweep.Values)} of \"{basePlan.Name}\": {RunService.RefusalText(refusal)}",
            AuditLog.EndpointOf(basePlan, null), CancellationToken.None);
}
