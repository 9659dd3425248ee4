namespace BenchWeb.Jobs;

/// <summary>Why a job ended failed without finishing: the agent executing it stopped heartbeating (its process died).
/// Only its message is shown, on the scheduler's dashboard.</summary>
public sealed class AgentLostException : Exception
{
    public AgentLostException()
    {
    }

    public AgentLostException(string message)
        : base(message)
    {
    }

    public AgentLostException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
