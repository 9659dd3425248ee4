namespace BenchWeb.Guard.Security;

/// <summary>The acting user of an HTTP request (an API call), for the services that record what they do.</summary>
public static class HttpContextActor
{
    /// <summary>The request's user and its remote address (the connection's peer; behind a proxy, the forwarded
    /// client when forwarded headers are enabled).</summary>
    public static Actor Actor(this HttpContext http)
    {
        ArgumentNullException.ThrowIfNull(http);
        return Guard.Security.Actor.From(http.User, http.Connection.RemoteIpAddress);
    }
}
