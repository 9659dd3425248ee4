namespace BenchWeb.Guard.Administration;

/// <summary>What an administrator has set. A null value stands for the configured default.</summary>
public sealed record InstallationSettings
{
    public double? MaxDurationSeconds { get; init; }

    public long? MaxDocuments { get; init; }

    public int? MaxConcurrency { get; init; }

    public double? MaxRatePerSecond { get; init; }

    public int? MaxRequestUnits { get; init; }

    /// <summary>The endpoint allow-list's host patterns; null for the configured list.</summary>
    public IReadOnlyList<string>? EndpointPatterns { get; init; }

    public DateTimeOffset? UpdatedAt { get; init; }

    public string? UpdatedBy { get; init; }
}
