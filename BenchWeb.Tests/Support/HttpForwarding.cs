using Microsoft.AspNetCore.Http;

namespace BenchWeb.Tests.Support;

/// <summary>What the loopback HTTP proxies share: passing a request they received on to the server behind them, and that
/// server's answer back, headers and body as they are (the hop-by-hop headers aside).</summary>
public static class HttpForwarding
{
    private static readonly HashSet<string> HopByHop = new(StringComparer.OrdinalIgnoreCase) { "Host", "Connection", "Transfer-Encoding", "Keep-Alive", "Content-Length" };

    /// <summary>Sends <paramref name="request"/> to <paramref name="upstream"/> (its base address the server's) and returns the
    /// server's answer, for the caller to pass back (<see cref="CopyAsync"/>) or to replace.</summary>
    public static async Task<HttpResponseMessage> SendAsync(HttpClient upstream, HttpRequest request, CancellationToken cancellationToken)
    {
        using var message = new HttpRequestMessage(new HttpMethod(request.Method), request.Path + request.QueryString);
        using var body = new MemoryStream();
        await request.Body.CopyToAsync(body, cancellationToken);
        message.Content = new ByteArrayContent(body.ToArray());
        foreach (var (name, values) in request.Headers)
        {
            if (HopByHop.Contains(name))
            {
                continue;
            }

            if (!message.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values))
            {
                message.Content.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values);
            }
        }

        return await upstream.SendAsync(message, cancellationToken);
    }

    /// <summary>Answers with <paramref name="response"/>: its status, headers and body.</summary>
    public static async Task CopyAsync(HttpResponseMessage response, HttpResponse to, CancellationToken cancellationToken)
    {
        to.StatusCode = (int)response.StatusCode;
        foreach (var (name, values) in response.Headers.Concat(response.Content.Headers))
        {
            if (!HopByHop.Contains(name))
            {
                to.Headers[name] = values.ToArray();
            }
        }

        if (to.StatusCode is not (StatusCodes.Status204NoContent or StatusCodes.Status304NotModified))
        {
            // Kestrel refuses any write, even an empty one, to a response that has no body.
            await response.Content.CopyToAsync(to.Body, cancellationToken);
        }
    }
}
