namespace BenchWeb.Data;

/// <summary>The kill switch: while a row (id 1) says paused, no run is launched. Stored, so a restart keeps it.</summary>
public sealed class LaunchPauseEntity
{
    public const int SingletonId = 1;

    public int Id { get; set; } = SingletonId;

    public bool Paused { get; set; }

    /// <summary>When the switch was last turned on or off.</summary>
    public DateTimeOffset ChangedAt { get; set; }

    /// <summary>The name of the admin who turned it on or off.</summary>
    public required string ChangedBy { get; set; }

    /// <summary>What the admin said when pausing, shown to everyone whose launch is refused.</summary>
    public string? Reason { get; set; }
}
