using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Secrets;
using BenchWeb.Guard.Security;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Profiles;

/// <summary>Saved test profiles. A profile's plan is validated before it is saved, by the engine's rules and those of a
/// plan from the web (an uploaded workload file, never a path). Creating, changing (with the settings that changed),
/// cloning and deleting are recorded in the audit log. Reading profiles is <see cref="ProfileReader"/>'s.</summary>
public sealed class ProfileService(
    IDbContextFactory<BenchDbContext> databases, SecretStore secrets, CsvUploadStore uploads, RunOutcomeReader runs, AuditLog audit, TimeProvider time)
{
    /// <summary>Creates (id 0) or updates a profile from the editor's draft and stores any secret typed into it.</summary>
    /// <exception cref="RunPlanValidationException">The draft's plan has invalid settings; nothing was saved.</exception>
    /// <exception cref="ProfileDeletedException">The profile <paramref name="id"/> was deleted meanwhile (an editor left
    /// open in another tab); nothing was saved, and it is not created again.</exception>
    public async Task<long> SaveAsync(long id, ProfileDraft draft, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(draft);
        var (checkedDraft, errors) = draft.Check(await uploads.LookupAsync(draft.Plan, cancellationToken));
        return checkedDraft is null ? throw new RunPlanValidationException(errors) : (await SaveAsync(id, checkedDraft, actor, cancellationToken)).Id;
    }

    /// <summary>Creates (id 0) or updates a profile from a draft checked already (the editor's, at its last change), without
    /// checking it again, and stores any secret typed into it. Answers the profile's id and its plan as saved, checked: the
    /// plan a launch takes. Naming a stored secret changes the plan, so only then is it checked again. Its baseline run is
    /// looked up now (<see cref="BaselineRule"/>): a run may have been deleted since the draft was checked.</summary>
    /// <exception cref="RunPlanValidationException">The plan's baseline run does not exist or measured nothing; nothing was saved.</exception>
    /// <exception cref="ProfileDeletedException">The profile <paramref name="id"/> was deleted meanwhile; nothing was saved.</exception>
    public async Task<(long Id, CheckedWebPlan Plan)> SaveAsync(long id, CheckedDraft checkedDraft, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(checkedDraft);
        ArgumentNullException.ThrowIfNull(actor);
        var saved = checkedDraft.Plan;
        if (await BaselineRule.CheckAsync(runs, saved.Given, cancellationToken) is { Count: > 0 } baselineErrors)
        {
            throw new RunPlanValidationException(baselineErrors);
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow();
        var profile = id == 0 ? null : await db.Profiles.SingleOrDefaultAsync(p => p.Id == id, cancellationToken) ?? throw new ProfileDeletedException(id);
        var before = profile is null ? null : new { profile.Name, profile.Description, profile.PlanJson };
        if (profile is null)
        {
            profile = new ProfileEntity { Name = saved.Given.Name, PlanJson = "{}", CreatedAt = now, PresetId = checkedDraft.PresetId };
            db.Profiles.Add(profile);
            await db.SaveChangesAsync(cancellationToken);
        }

        if (await StoreNewSecretsAsync(profile.Id, checkedDraft.Draft, actor, cancellationToken))
        {
            var (named, errors) = await uploads.CheckAsync(checkedDraft.Draft.Plan, cancellationToken);
            saved = named ?? throw new RunPlanValidationException(errors);
        }

        var plan = saved.Given;
        profile.Name = plan.Name;
        profile.Description = checkedDraft.Description;
        profile.PlanJson = plan.ToJson();
        profile.UpdatedAt = now;
        var endpoint = AuditLog.EndpointOf(plan, await secrets.EndpointsAsync(plan, profile.Id, cancellationToken));
        if (before is null)
        {
            audit.Append(db, actor, AuditActions.ProfileCreated, Subject(profile), Summary(plan), endpoint);
        }
        else
        {
            var changes = new List<string>();
            if (before.Name != profile.Name)
            {
                changes.Add($"Name: {before.Name} → {profile.Name}");
            }

            if (before.Description != profile.Description)
            {
                changes.Add("Description changed");
            }

            // The stored plan as this version writes it: settings it did not have yet (a new target's section) are no change.
            // Shown as everywhere (ShownPlan): a user name or password an old endpoint carried is said to be gone, never quoted.
            var stored = TryRead(before.PlanJson)?.ToJson() ?? before.PlanJson;
            var shown = ShownPlan.Json(stored);
            if (shown != stored)
            {
                changes.Add("A user name or password removed from an endpoint");
            }

            changes.AddRange(PlanChanges.Describe(shown, profile.PlanJson).Where(c => !c.StartsWith("Name:", StringComparison.Ordinal)));
            if (changes.Count > 0)
            {
                audit.Append(db, actor, AuditActions.ProfileChanged, Subject(profile), string.Join("; ", changes), endpoint);
            }
        }

        try
        {
            await db.SaveChangesAsync(cancellationToken);
        }
        catch (DbUpdateConcurrencyException ex) when (before is not null)
        {
            // Deleted between the read above and this update: the update touched no row.
            throw new ProfileDeletedException($"Profile #{id} was deleted while it was being saved: nothing was saved and no run was started.", ex);
        }

        return (profile.Id, saved);
    }

    /// <summary>What is wrong with the plan's baseline run (<see cref="BaselineRule"/>): the profile editor asks when it
    /// opens a profile and before it saves one.</summary>
    public Task<IReadOnlyList<FieldError>> CheckBaselineAsync(RunPlan plan, CancellationToken cancellationToken) =>
        BaselineRule.CheckAsync(runs, plan, cancellationToken);

    /// <summary>Creates a profile from a plan (the HTTP API's way).</summary>
    /// <exception cref="RunPlanValidationException">The plan or description is invalid, or its baseline run does not exist
    /// or measured nothing; nothing was saved.</exception>
    public async Task<ProfileEntity> CreateAsync(RunPlan plan, string? description, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(actor);
        var errors = (await uploads.ValidateAsync(plan, cancellationToken)).ToList();
        description = string.IsNullOrWhiteSpace(description) ? null : description.Trim();
        errors.AddRange(ProfileDraft.CheckDescription(description));
        errors.AddRange(await BaselineRule.CheckAsync(runs, plan, cancellationToken));

        if (errors.Count > 0)
        {
            throw new RunPlanValidationException(errors);
        }

        var now = time.GetUtcNow();
        var profile = new ProfileEntity { Name = plan.Name, Description = description, PlanJson = plan.ToJson(), CreatedAt = now, UpdatedAt = now };
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        db.Profiles.Add(profile);
        await db.SaveChangesAsync(cancellationToken);
        audit.Append(db, actor, AuditActions.ProfileCreated, Subject(profile), Summary(plan), AuditLog.EndpointOf(plan, null));
        await db.SaveChangesAsync(cancellationToken);
        return profile;
    }

    /// <summary>Copies a profile with its own copy of the stored secrets, so removing one profile's key never
    /// touches the other's.</summary>
    public async Task<long?> CloneAsync(long id, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Profiles.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, cancellationToken) is not { } source)
        {
            return null;
        }

        var now = time.GetUtcNow();
        // The copy holds no user name or password an old endpoint of the source still carries.
        var plan = RunPlan.FromJson(ShownPlan.Json(source.PlanJson));
        var copy = new ProfileEntity
        {
            Name = $"{source.Name} (copy)",
            Description = source.Description,
            PlanJson = (plan with { Name = $"{plan.Name} (copy)" }).ToJson(),
            PresetId = source.PresetId,
            CreatedAt = now,
            UpdatedAt = now,
        };
        db.Profiles.Add(copy);
        await db.SaveChangesAsync(cancellationToken);

        var renamed = await secrets.CopyAsync(id, copy.Id, cancellationToken);
        if (renamed.Count > 0)
        {
            var target = TargetRegistry.All.SelectMany(m => m.Fields).Where(f => f.Input == TargetInput.Secret).DistinctBy(f => f.Path)
                .Aggregate(plan.Target, (options, f) => f.ValueIn(options) is string name && renamed.TryGetValue(name, out var copied) ? f.With(options, copied) : options);
            plan = plan with { Name = copy.Name, Target = target };
            copy.PlanJson = plan.ToJson();
        }

        var copied = renamed.Count == 0 ? "" : $" with its {renamed.Count} stored secret{(renamed.Count == 1 ? "" : "s")}";
        audit.Append(db, actor, AuditActions.ProfileCloned, Subject(copy), $"copy of {Subject(source)}{copied}",
            AuditLog.EndpointOf(plan, await secrets.EndpointsAsync(plan, copy.Id, cancellationToken)));
        await db.SaveChangesAsync(cancellationToken);
        return copy.Id;
    }

    /// <summary>Deletes a profile and the secrets stored for it. Its runs stay, with their own snapshot.</summary>
    public async Task<bool> DeleteAsync(long id, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(actor);
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Profiles.SingleOrDefaultAsync(p => p.Id == id, cancellationToken) is not { } profile)
        {
            return false;
        }

        foreach (var run in await db.Runs.Where(r => r.ProfileId == id).ToListAsync(cancellationToken))
        {
            run.ProfileId = null;
        }

        db.Profiles.Remove(profile);
        var prefix = SecretStore.NameFor(id, "");
        var stored = await db.Secrets.Where(s => s.Name.StartsWith(prefix)).ToListAsync(cancellationToken);
        db.Secrets.RemoveRange(stored);
        var plan = TryRead(profile.PlanJson);
        // Read before the secrets go: where the profile's stored secrets pointed.
        var secretEndpoints = plan is null ? null : await secrets.EndpointsAsync(plan, id, cancellationToken);
        audit.Append(db, actor, AuditActions.ProfileDeleted, Subject(profile),
            stored.Count == 0 ? "its runs stay" : $"its runs stay; its {stored.Count} stored secret{(stored.Count == 1 ? " was" : "s were")} removed with it",
            plan is null ? null : AuditLog.EndpointOf(plan, secretEndpoints));
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>"profile #3 “Nightly”", as the audit log names a profile.</summary>
    public static string Subject(ProfileEntity profile)
    {
        ArgumentNullException.ThrowIfNull(profile);
        return $"profile #{profile.Id} “{profile.Name}”";
    }

    private static string Summary(RunPlan plan) => $"{PlanText.Target(plan)}; {PlanText.Load(plan)}; {PlanText.Stop(plan)}";

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

    // Whether a secret was stored, and named in the draft's plan.
    private async Task<bool> StoreNewSecretsAsync(long profileId, ProfileDraft draft, Actor actor, CancellationToken cancellationToken)
    {
        var named = false;
        // Only the chosen kind's: a key pasted before switching to another kind is not stored.
        var endpoints = draft.Kind.Module as IServiceEndpoints;
        var planned = endpoints?.PlannedEndpoint(draft.Plan.Target)?.Endpoint;
        foreach (var (field, secret) in draft.TypedSecrets.Where(s => s.Field.Input == TargetInput.Secret).ToList())
        {
            var name = SecretStore.NameFor(profileId, field.SecretPurpose ?? field.Path);
            draft.NameSecret(field, name);
            named = true;
            // A connection string names its endpoint; a key is bound to the endpoint the profile names when it is stored.
            await secrets.SetAsync(name, secret, typed => endpoints?.EndpointOfSecret(field, typed) ?? planned, actor, cancellationToken);
        }

        // Typed secrets leave the draft's memory as soon as they are stored.
        draft.ForgetTypedSecrets();
        return named;
    }
}
