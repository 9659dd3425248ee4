namespace BenchEngine.Targets;

/// <summary>A target could not be set up from its settings (missing secret, bad connection string,
/// unreachable endpoint). The message is safe to show: it never contains a secret.</summary>
public sealed class TargetConfigurationException : Exception
{
    public TargetConfigurationException()
    {
    }

    public TargetConfigurationException(string message)
        : base(message)
    {
    }

    public TargetConfigurationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
