namespace BenchWeb.Guard.Administration;

/// <summary>A launch was refused: an administrator has stopped all runs and paused launching.</summary>
public sealed class LaunchesPausedException : Exception
{
    public LaunchesPausedException()
        : this(KillSwitchState.Released)
    {
    }

    public LaunchesPausedException(string message)
        : base(message)
    {
        State = KillSwitchState.Released;
    }

    public LaunchesPausedException(string message, Exception innerException)
        : base(message, innerException)
    {
        State = KillSwitchState.Released;
    }

    public LaunchesPausedException(KillSwitchState state)
        : base(state?.Message)
    {
        State = state ?? KillSwitchState.Released;
    }

    public KillSwitchState State { get; }
}
