using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A loopback HTTP proxy in front of the Cosmos DB API server that answers the requests a test picks with an error of
/// its own (status, headers, body, reason phrase) and passes every other one on: the failures of a real account, whose
/// bodies hold whatever the service chose to say, on demand. Started with <see cref="StartDelayingAsync"/>, it holds the
/// requests a test picks for a while before passing them on: a slow service, on demand.
/// </summary>
public sealed class CosmosFaultProxy : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly HttpClient _upstream;
    private int _faults;

    private CosmosFaultProxy(WebApplication app, HttpClient upstream)
    {
        _app = app;
        _upstream = upstream;
    }

    public string Endpoint => _app.Urls.First().TrimEnd('/') + "/";

    /// <summary>Requests answered with the fault so far.</summary>
    public int Faults => Volatile.Read(ref _faults);

    /// <summary>The activity ids the server answered the held requests with (<c>x-ms-activity-id</c>, which the SDK's
    /// diagnostics quote), once they were answered.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<string> Held { get; } = new();

    /// <summary>Starts a proxy to <paramref name="upstreamEndpoint"/> that holds each request matching <paramref name="hold"/>
    /// for <paramref name="delay"/> before passing it on, and passes every other one on at once.</summary>
    public static async Task<CosmosFaultProxy> StartDelayingAsync(string upstreamEndpoint, Func<HttpRequest, bool> hold, TimeSpan delay)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var proxy = new CosmosFaultProxy(app, new HttpClient { BaseAddress = new Uri(upstreamEndpoint) });
        app.Run(async context =>
        {
            if (!hold(context.Request))
            {
                await proxy.ForwardAsync(context);
                return;
            }

            await Task.Delay(delay, context.RequestAborted);
            await proxy.ForwardAsync(context);
            proxy.Held.Enqueue(context.Response.Headers["x-ms-activity-id"].ToString());
        });
        await app.StartAsync();
        return proxy;
    }

    /// <summary>Starts a proxy to <paramref name="upstreamEndpoint"/> that answers requests matching <paramref name="fault"/>
    /// with <paramref name="status"/>, <paramref name="body"/> (JSON) and the given reason phrase and headers.</summary>
    public static async Task<CosmosFaultProxy> StartAsync(
        string upstreamEndpoint,
        Func<HttpRequest, bool> fault,
        int status,
        string body,
        string? reasonPhrase = null,
        IReadOnlyDictionary<string, string>? headers = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var proxy = new CosmosFaultProxy(app, new HttpClient { BaseAddress = new Uri(upstreamEndpoint) });
        app.Run(async context =>
        {
            if (fault(context.Request))
            {
                Interlocked.Increment(ref proxy._faults);
                context.Response.StatusCode = status;
                if (reasonPhrase is not null)
                {
                    context.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = reasonPhrase;
                }

                foreach (var (name, value) in headers ?? new Dictionary<string, string>())
                {
                    context.Response.Headers[name] = value;
                }

                context.Response.ContentType = "application/json";
                await context.Response.WriteAsync(body);
                return;
            }

            await proxy.ForwardAsync(context);
        });
        await app.StartAsync();
        return proxy;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
        _upstream.Dispose();
    }

    private async Task ForwardAsync(HttpContext context)
    {
        using var response = await HttpForwarding.SendAsync(_upstream, context.Request, context.RequestAborted);
        await HttpForwarding.CopyAsync(response, context.Response, context.RequestAborted);
    }
}
