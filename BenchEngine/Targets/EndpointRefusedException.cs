namespace BenchEngine.Targets;

/// <summary>A connection the <see cref="EndpointPolicy"/> refused; its message is the policy's.</summary>
public sealed class EndpointRefusedException : IOException
{
    public EndpointRefusedException()
    {
    }

    public EndpointRefusedException(string message)
        : base(message)
    {
    }

    public EndpointRefusedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>The refusal somewhere in <paramref name="exception"/>'s chain of inner exceptions, when there is one.</summary>
    public static EndpointRefusedException? Find(Exception? exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            if (e is EndpointRefusedException refused)
            {
                return refused;
            }
        }

        return null;
    }
}
