using System.Globalization;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Guard.Audit;
using BenchWeb.Guard.Security;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Administration;

/// <summary>The installation's limits and endpoint allow-list: an administrator's values (stored in the database),
/// else the configured defaults. Every change is audited with its old and new values.</summary>
public sealed class InstallationSettingsService(
    IDbContextFactory<BenchDbContext> databases,
    IOptions<InstallationLimitsOptions> defaults,
    IOptions<SecurityOptions> security,
    AuditLog audit,
    TimeProvider time)
{
    private readonly Lock _gate = new();
    private LaunchRules? _rules;

    /// <summary>The limits the configuration gives.</summary>
    public InstallationLimits DefaultLimits => InstallationLimits.From(defaults.Value);

    /// <summary>The allow-list the configuration gives (the built-in Azure patterns unless it lists its own).</summary>
    public IReadOnlyList<string> DefaultPatterns => security.Value.EndpointAllowList is { Count: > 0 } configured ? [.. configured] : EndpointAllowList.BuiltInPatterns;

    /// <summary>The rules as last read, for checks that cannot wait for the database (the allow-list as a connection
    /// policy). Read once on first use; every <see cref="RulesAsync"/> and every save refreshes them.</summary>
    public LaunchRules Rules
    {
        get
        {
            lock (_gate)
            {
                if (_rules is { } rules)
                {
                    return rules;
                }
            }

            using var db = databases.CreateDbContext();
            return Remember(RulesOf(Read(db.InstallationSettings.AsNoTracking().SingleOrDefault())));
        }
    }

    /// <summary>What an administrator has set (nulls: the defaults).</summary>
    public async Task<InstallationSettings> GetAsync(CancellationToken cancellationToken)
    {
        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var settings = Read(await db.InstallationSettings.AsNoTracking().SingleOrDefaultAsync(cancellationToken));
        Remember(RulesOf(settings));
        return settings;
    }

    /// <summary>The rules in force now, read from the database (another instance's admin may have changed them).</summary>
    public async Task<LaunchRules> RulesAsync(CancellationToken cancellationToken) => RulesOf(await GetAsync(cancellationToken));

    /// <summary>Stores an administrator's settings and records the change (old → new) in the audit log.</summary>
    /// <returns>The invalid values, by setting name; nothing is stored when there are any.</returns>
    public async Task<IReadOnlyList<FieldError>> SaveAsync(InstallationSettings settings, Actor actor, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(actor);
        var patterns = settings.EndpointPatterns?.Select(p => p.Trim().TrimEnd('.').ToLowerInvariant()).Where(p => p.Length > 0).Distinct(StringComparer.Ordinal).ToList();
        settings = settings with { EndpointPatterns = patterns is { Count: > 0 } ? patterns : null };
        var errors = Validate(settings);
        if (errors.Count > 0)
        {
            return errors;
        }

        await using var db = await databases.CreateDbContextAsync(cancellationToken);
        var row = await db.InstallationSettings.SingleOrDefaultAsync(cancellationToken);
        var before = Read(row);
        if (row is null)
        {
            row = new InstallationSettingsEntity();
            db.InstallationSettings.Add(row);
        }

        var changes = Describe(before, settings);
        if (changes.Count == 0)
        {
            return [];
        }

        row.MaxDurationSeconds = settings.MaxDurationSeconds;
        row.MaxDocuments = settings.MaxDocuments;
        row.MaxConcurrency = settings.MaxConcurrency;
        row.MaxRatePerSecond = settings.MaxRatePerSecond;
        row.MaxRequestUnits = settings.MaxRequestUnits;
        row.EndpointPatterns = settings.EndpointPatterns is { } list ? string.Join('\n', list) : null;
        row.UpdatedAt = time.GetUtcNow();
        row.UpdatedBy = actor.Name;
        audit.Append(db, actor, AuditActions.SettingsChanged, "installation settings", string.Join("; ", changes));
        await db.SaveChangesAsync(cancellationToken);
        Remember(RulesOf(Read(row)));
        return [];
    }

    /// <summary>Each value out of its range, by setting name.</summary>
    public static IReadOnlyList<FieldError> Validate(InstallationSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var errors = new List<FieldError>();
        void Check(bool invalid, string field, string message)
        {
            if (invalid)
            {
                errors.Add(new(field, message));
            }
        }

        Check(settings.MaxDurationSeconds is < 1 or > InstallationLimits.MaxDurationCeiling || settings.MaxDurationSeconds is double.NaN,
            nameof(settings.MaxDurationSeconds), $"Between 1 and {InstallationLimits.MaxDurationCeiling:N0} seconds (a week), or empty for the default.");
        Check(settings.MaxDocuments is < 1, nameof(settings.MaxDocuments), "At least 1, or empty for the default.");
        Check(settings.MaxConcurrency is < 1 or > InstallationLimits.MaxConcurrencyCeiling,
            nameof(settings.MaxConcurrency), $"Between 1 and {InstallationLimits.MaxConcurrencyCeiling:N0}, or empty for the default.");
        Check(settings.MaxRatePerSecond is < 1 or > InstallationLimits.MaxRateCeiling || settings.MaxRatePerSecond is double.NaN,
            nameof(settings.MaxRatePerSecond), $"Between 1 and {InstallationLimits.MaxRateCeiling:N0} requests/s, or empty for the default.");
        Check(settings.MaxRequestUnits is < 400 or > InstallationLimits.MaxRequestUnitsCeiling,
            nameof(settings.MaxRequestUnits), $"Between 400 (the service's minimum) and {InstallationLimits.MaxRequestUnitsCeiling:N0} RU/s, or empty for the default.");
        if (settings.EndpointPatterns is { } patterns)
        {
            Check(patterns.Count > EndpointAllowList.MaxPatterns, nameof(settings.EndpointPatterns), $"At most {EndpointAllowList.MaxPatterns} patterns.");
            foreach (var problem in patterns.Select(EndpointAllowList.ValidatePattern).OfType<string>())
            {
                errors.Add(new(nameof(settings.EndpointPatterns), problem));
            }
        }

        return errors;
    }

    private LaunchRules RulesOf(InstallationSettings settings)
    {
        var fallback = DefaultLimits;
        var limits = new InstallationLimits(
            settings.MaxDurationSeconds ?? fallback.MaxDurationSeconds,
            settings.MaxDocuments ?? fallback.MaxDocuments,
            settings.MaxConcurrency ?? fallback.MaxConcurrency,
            settings.MaxRatePerSecond ?? fallback.MaxRatePerSecond,
            settings.MaxRequestUnits ?? fallback.MaxRequestUnits);
        return new LaunchRules(limits, settings.EndpointPatterns ?? DefaultPatterns, security.Value.AllowLoopbackEndpoints);
    }

    private LaunchRules Remember(LaunchRules rules)
    {
        lock (_gate)
        {
            _rules = rules;
        }

        return rules;
    }

    private static InstallationSettings Read(InstallationSettingsEntity? row) => row is null
        ? new InstallationSettings()
        : new InstallationSettings
        {
            MaxDurationSeconds = row.MaxDurationSeconds,
            MaxDocuments = row.MaxDocuments,
            MaxConcurrency = row.MaxConcurrency,
            MaxRatePerSecond = row.MaxRatePerSecond,
            MaxRequestUnits = row.MaxRequestUnits,
            EndpointPatterns = row.EndpointPatterns?.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries),
            UpdatedAt = row.UpdatedAt,
            UpdatedBy = row.UpdatedBy,
        };

    /// <summary>"Maximum run duration: 86,400 s (default) → 3,600 s", one item per changed setting.</summary>
    private List<string> Describe(InstallationSettings before, InstallationSettings after)
    {
        var fallback = DefaultLimits;
        var changes = new List<string>();
        void Compare<T>(string label, T? old, T? now, T defaultValue, string unit)
            where T : struct, IFormattable
        {
            if (!Nullable.Equals(old, now))
            {
                changes.Add($"{label}: {Show(old, defaultValue, unit)} → {Show(now, defaultValue, unit)}");
            }
        }

        Compare("Maximum run duration", before.MaxDurationSeconds, after.MaxDurationSeconds, fallback.MaxDurationSeconds, " s");
        Compare("Maximum documents", before.MaxDocuments, after.MaxDocuments, fallback.MaxDocuments, "");
        Compare("Maximum concurrency", before.MaxConcurrency, after.MaxConcurrency, fallback.MaxConcurrency, "");
        Compare("Maximum open-loop rate", before.MaxRatePerSecond, after.MaxRatePerSecond, fallback.MaxRatePerSecond, " requests/s");
        Compare("Maximum RU/s provisioned", before.MaxRequestUnits, after.MaxRequestUnits, fallback.MaxRequestUnits, " RU/s");

        var oldPatterns = before.EndpointPatterns ?? DefaultPatterns;
        var newPatterns = after.EndpointPatterns ?? DefaultPatterns;
        var added = newPatterns.Except(oldPatterns, StringComparer.Ordinal).ToList();
        var removed = oldPatterns.Except(newPatterns, StringComparer.Ordinal).ToList();
        if (added.Count > 0 || removed.Count > 0 || (before.EndpointPatterns is null) != (after.EndpointPatterns is null))
        {
            var parts = new List<string>();
            if (added.Count > 0)
            {
                parts.Add("added " + string.Join(", ", added));
            }

            if (removed.Count > 0)
            {
                parts.Add("removed " + string.Join(", ", removed));
            }

            parts.Add(after.EndpointPatterns is null ? "now the default list" : before.EndpointPatterns is null ? "was the default list" : "");
            changes.Add("Endpoint allow-list: " + string.Join(", ", parts.Where(p => p.Length > 0)));
        }

        return changes;
    }

    private static string Show<T>(T? value, T defaultValue, string unit)
        where T : struct, IFormattable =>
        value is { } set
            ? set.ToString("N0", CultureInfo.InvariantCulture) + unit
            : defaultValue.ToString("N0", CultureInfo.InvariantCulture) + unit + " (default)";
}
