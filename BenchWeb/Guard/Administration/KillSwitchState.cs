using System.Globalization;

namespace BenchWeb.Guard.Administration;

/// <summary>Whether launching is paused, since when, by whom and why.</summary>
public sealed record KillSwitchState(bool Engaged, DateTimeOffset? ChangedAt, string? ChangedBy, string? Reason)
{
    public static readonly KillSwitchState Released = new(false, null, null, null);

    /// <summary>What a refused launch is told.</summary>
    public string Message => Engaged
        ? $"Launching is paused: an administrator ({ChangedBy}) stopped all runs at {ChangedAt?.UtcDateTime.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture)} UTC"
            + (string.IsNullOrWhiteSpace(Reason) ? "." : $": “{Reason}”.") + " No run starts until an administrator resumes launching."
        : "Launching is open.";
}
