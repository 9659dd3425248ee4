namespace BenchWeb.Guard.Audit;

/// <summary>What the audit log records, as <c>subject.verb</c> names (the filter on the audit page lists them).</summary>
public static class AuditActions
{
    public const string RunLaunched = "run.launched";
    public const string RunCancelled = "run.cancelled";
    public const string RunImported = "run.imported";

    /// <summary>A launch the installation refused (the kill switch, a limit, the endpoint allow-list, a key stored for
    /// another server, a secret the setting may not name); nothing was queued.</summary>
    public const string RunRefused = "run.refused";
    public const string SweepLaunched = "sweep.launched";
    public const string SweepCancelled = "sweep.cancelled";

    /// <summary>A sweep refused before it started: one of its steps may not be launched.</summary>
    public const string SweepRefused = "sweep.refused";
    public const string ProfileCreated = "profile.created";
    public const string ProfileChanged = "profile.changed";
    public const string ProfileCloned = "profile.cloned";
    public const string ProfileDeleted = "profile.deleted";
    public const string SecretStored = "secret.stored";
    public const string SecretRemoved = "secret.removed";
    public const string SettingsChanged = "settings.changed";
    public const string LaunchesPaused = "launches.paused";
    public const string LaunchesResumed = "launches.resumed";
    public const string UserInvited = "user.invited";
    public const string InvitationWithdrawn = "user.invitation-withdrawn";
    public const string UserRoleChanged = "user.role-changed";
    public const string UserDisabled = "user.disabled";
    public const string UserEnabled = "user.enabled";
    public const string TokenCreated = "token.created";
    public const string TokenRevoked = "token.revoked";
    public const string FileUploaded = "file.uploaded";

    /// <summary>An upload refused (too large, not a CSV text file, a body cut off or malformed), with the name given, the
    /// size when known and the reason, never the content; nothing was kept.</summary>
    public const string FileRefused = "file.refused";
    public const string FileDeleted = "file.deleted";

    public static readonly IReadOnlyList<string> All =
    [
        RunLaunched, RunRefused, RunCancelled, RunImported, SweepLaunched, SweepRefused, SweepCancelled,
        ProfileCreated, ProfileChanged, ProfileCloned, ProfileDeleted,
        SecretStored, SecretRemoved,
        SettingsChanged, LaunchesPaused, LaunchesResumed,
        UserInvited, InvitationWithdrawn, UserRoleChanged, UserDisabled, UserEnabled,
        TokenCreated, TokenRevoked,
        FileUploaded, FileRefused, FileDeleted,
    ];
}
