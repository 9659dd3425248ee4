namespace BenchWeb.Data;

/// <summary>The installation's limits and endpoint allow-list as an administrator set them: one row (id 1). A null
/// column means "the configured default", so a changed default in the configuration applies until an admin sets a
/// value of their own.</summary>
public sealed class InstallationSettingsEntity
{
    public const int SingletonId = 1;

    public int Id { get; set; } = SingletonId;

    public double? MaxDurationSeconds { get; set; }

    public long? MaxDocuments { get; set; }

    public int? MaxConcurrency { get; set; }

    public double? MaxRatePerSecond { get; set; }

    public int? MaxRequestUnits { get; set; }

    /// <summary>Host patterns, one per line; null for the configured list.</summary>
    public string? EndpointPatterns { get; set; }

    public DateTimeOffset? UpdatedAt { get; set; }

    public string? UpdatedBy { get; set; }
}
