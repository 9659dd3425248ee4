namespace BenchWeb.Profiles;

/// <summary>A save of a profile that no longer exists: it was deleted (in another tab, or by someone else) after its
/// editor was opened. Nothing was saved; the profile is not created again.</summary>
public sealed class ProfileDeletedException : Exception
{
    public ProfileDeletedException()
        : this(0)
    {
    }

    public ProfileDeletedException(string message)
        : base(message)
    {
    }

    public ProfileDeletedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public ProfileDeletedException(long profileId)
        : base($"Profile #{profileId} was deleted after this editor was opened: nothing was saved and no run was started.")
    {
        ProfileId = profileId;
    }

    /// <summary>The profile the editor was saving.</summary>
    public long ProfileId { get; }
}
