using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Secrets;
using BenchWeb.Uploads;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Profiles;

/// <summary>Saved test profiles. A profile's plan is validated before it is saved, by the engine's rules and those of a
/// plan from the web (an uploaded workload file, never a path).</summary>
public sealed class ProfileService(IDbContextFactory<BenchDbContext> databases, SecretStore secrets, CsvUploadStore uploads, TimeProvider time)
{
    public async Task<IReadOnlyList<ProfileEntity>> ListAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Profiles.AsNoTracking().OrderBy(p => p.Name).ThenBy(p => p.Id).ToListAsync(cancellationToken);
    }

    public async Task<ProfileEntity?> FindAsync(long id, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        return await db.Profiles.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, cancellationToken);
    }

    /// <summary>Creates (id 0) or updates a profile and stores any secret typed into the form.</summary>
    /// <exception cref="RunPlanValidationException">The form's plan has invalid settings; nothing was saved.</exception>
    public async Task<long> SaveAsync(long id, ProfileForm form, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(form);
        if (form.ValidateAll(await uploads.LookupAsync(form.ToPlan(), cancellationToken)) is { Count: > 0 } errors)
        {
            throw new RunPlanValidationException(errors);
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var now = time.GetUtcNow();
        var profile = id == 0 ? null : await db.Profiles.SingleOrDefaultAsync(p => p.Id == id, cancellationToken);
        if (profile is null)
        {
            profile = new ProfileEntity { Name = form.Name, PlanJson = "{}", CreatedAt = now, PresetId = form.PresetId };
            db.Profiles.Add(profile);
            await db.SaveChangesAsync(cancellationToken);
        }

        await StoreNewSecretsAsync(profile.Id, form, cancellationToken);
        profile.Name = form.Name.Trim();
        profile.Description = string.IsNullOrWhiteSpace(form.Description) ? null : form.Description.Trim();
        profile.PlanJson = form.ToPlan().ToJson();
        profile.UpdatedAt = now;
        await db.SaveChangesAsync(cancellationToken);
        return profile.Id;
    }

    /// <summary>Copies a profile with its own copy of the stored secrets, so removing one profile's key never
    /// touches the other's.</summary>
    public async Task<long?> CloneAsync(long id, CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        if (await db.Profiles.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, cancellationToken) is not { } source)
        {
            return null;
        }

        var now = time.GetUtcNow();
        var plan = RunPlan.FromJson(source.PlanJson);
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
            var target = plan.Target;
            plan = plan with
            {
                Name = copy.Name,
                Target = target with
                {
                    Cosmos = target.Cosmos with { KeySecret = renamed.GetValueOrDefault(target.Cosmos.KeySecret, target.Cosmos.KeySecret) },
                    Tables = target.Tables with { ConnectionStringSecret = renamed.GetValueOrDefault(target.Tables.ConnectionStringSecret, target.Tables.ConnectionStringSecret) },
                },
            };
            copy.PlanJson = plan.ToJson();
            await db.SaveChangesAsync(cancellationToken);
        }

        return copy.Id;
    }

    /// <summary>Deletes a profile and the secrets stored for it. Its runs stay, with their own snapshot.</summary>
    public async Task<bool> DeleteAsync(long id, CancellationToken cancellationToken)
    {
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
        db.Secrets.RemoveRange(await db.Secrets.Where(s => s.Name.StartsWith(prefix)).ToListAsync(cancellationToken));
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    private async Task StoreNewSecretsAsync(long profileId, ProfileForm form, CancellationToken cancellationToken)
    {
        if (!string.IsNullOrWhiteSpace(form.NewCosmosKey))
        {
            form.CosmosKeySecret = SecretStore.NameFor(profileId, "cosmos-key");
            await secrets.SetAsync(form.CosmosKeySecret, form.NewCosmosKey, cancellationToken);
        }

        if (!string.IsNullOrWhiteSpace(form.NewTablesConnectionString))
        {
            form.TablesConnectionStringSecret = SecretStore.NameFor(profileId, "tables-connection-string");
            await secrets.SetAsync(form.TablesConnectionStringSecret, form.NewTablesConnectionString, cancellationToken);
        }

        // Typed secrets leave the form's memory as soon as they are stored.
        form.NewCosmosKey = null;
        form.NewTablesConnectionString = null;
    }
}
