using System.Net;

namespace BenchEngine.Targets;

/// <summary>
/// Failure texts built from what identifies a failure (HTTP status, sub-status, the SDK's error code, exception type
/// names) and never from what the other side wrote: a body, a reason phrase or an SDK message quoting them can hold
/// anything the endpoint chose to send, and these texts are shown to every viewer of a run.
/// </summary>
internal static class ErrorText
{
    private const int LongestCode = 64;

    /// <summary>"409 EntityAlreadyExists", or "503 ServiceUnavailable" when the service sent no usable error code.</summary>
    public static string Status(int status, string? errorCode = null) =>
        $"{status} {Code(errorCode) ?? StatusName(status)}";

    /// <summary>"400 BadRequest (sub-status 1001)"; the sub-status only when there is one.</summary>
    public static string Status(HttpStatusCode status, int subStatus) =>
        subStatus == 0 ? $"{(int)status} {StatusName((int)status)}" : $"{(int)status} {StatusName((int)status)} (sub-status {subStatus})";

    /// <summary>Why no response arrived: the endpoint policy's refusal, or the exception's type and, for HTTP, its
    /// category ("no response: HttpRequestException (ConnectionError)").</summary>
    public static string NoResponse(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        if (EndpointRefusedException.Find(exception) is { } refused)
        {
            return $"refused by the endpoint policy: {refused.Message}";
        }

        for (var e = exception; e is not null; e = e.InnerException)
        {
            if (e is HttpRequestException http)
            {
                return $"no response: {nameof(HttpRequestException)} ({http.HttpRequestError})";
            }
        }

        return $"no response: {Innermost(exception).GetType().Name}";
    }

    /// <summary>An error code as the SDK read it from a response header, when it looks like one (letters, digits,
    /// a few separators); anything else a server might put there is dropped.</summary>
    public static string? Code(string? code) =>
        code is { Length: > 0 and <= LongestCode } && code.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '-' or '.') ? code : null;

    private static string StatusName(int status) =>
        Enum.IsDefined((HttpStatusCode)status) ? ((HttpStatusCode)status).ToString() : "status";

    private static Exception Innermost(Exception exception)
    {
        var e = exception;
        while (e.InnerException is not null)
        {
            e = e.InnerException;
        }

        return e;
    }
}
