using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A loopback HTTP proxy in front of one of Azurite's services that answers the writes a test picks (an entity inserted, a
/// transaction, a blob uploaded, a message sent, numbered from 1 in the order they arrive) with an error of its own (status,
/// content type, body, error code) and passes every other request on. A picked write either never reaches Azurite, or, with
/// <c>landFirst</c>, reaches it and lands before the error is sent back: a service that answers "operation timed out" for
/// a write it did, on demand. What landed is what Azurite holds, counted by the test with the SDK's own client.
/// </summary>
public sealed class StorageFaultProxy : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly HttpClient _upstream;
    private readonly AzuriteService _azurite;
    private int _writes;
    private int _faults;
    private int _passed;

    private StorageFaultProxy(WebApplication app, AzuriteService azurite)
    {
        _app = app;
        _azurite = azurite;
        _upstream = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{azurite.Port}/") };
    }

    /// <summary>Azurite's connection string, through the proxy.</summary>
    public string ConnectionString => _azurite.ConnectionStringThrough(new Uri(_app.Urls.First()).Port);

    /// <summary>Writes received so far.</summary>
    public int Writes => Volatile.Read(ref _writes);

    /// <summary>Writes answered with the proxy's error so far.</summary>
    public int Faults => Volatile.Read(ref _faults);

    /// <summary>Writes passed on whose answer, passed back, was a success (201, 202, 204).</summary>
    public int Passed => Volatile.Read(ref _passed);

    /// <summary>Starts a proxy to <paramref name="azurite"/> that answers each write whose number <paramref name="pick"/>
    /// picks with <paramref name="status"/>, <paramref name="body"/> under <paramref name="contentType"/>, and the error code
    /// <paramref name="errorCode"/> in <c>x-ms-error-code</c> when given; with <paramref name="landFirst"/>, only after
    /// passing the write on and letting it land.</summary>
    public static async Task<StorageFaultProxy> StartAsync(
        AzuriteService azurite, Func<int, bool> pick, int status, string contentType, string body, string? errorCode = null, bool landFirst = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var proxy = new StorageFaultProxy(app, azurite);
        app.Run(async context =>
        {
            var aborted = context.RequestAborted;
            if (!IsWrite(context.Request))
            {
                using var passed = await HttpForwarding.SendAsync(proxy._upstream, context.Request, aborted);
                await HttpForwarding.CopyAsync(passed, context.Response, aborted);
                return;
            }

            if (!pick(Interlocked.Increment(ref proxy._writes)))
            {
                using var answer = await HttpForwarding.SendAsync(proxy._upstream, context.Request, aborted);
                if (answer.IsSuccessStatusCode)
                {
                    Interlocked.Increment(ref proxy._passed);
                }

                await HttpForwarding.CopyAsync(answer, context.Response, aborted);
                return;
            }

            if (landFirst)
            {
                using var landed = await HttpForwarding.SendAsync(proxy._upstream, context.Request, aborted);
                if (!landed.IsSuccessStatusCode)
                {
                    throw new InvalidOperationException($"The write to land first got {(int)landed.StatusCode} from Azurite.");
                }
            }
            else
            {
                // Read to its end, as a server does before it answers: a request body left unread can cost the connection.
                await context.Request.Body.CopyToAsync(Stream.Null, aborted);
            }

            Interlocked.Increment(ref proxy._faults);
            context.Response.StatusCode = status;
            if (errorCode is not null)
            {
                context.Response.Headers["x-ms-error-code"] = errorCode;
            }

            context.Response.ContentType = contentType;
            await context.Response.WriteAsync(body, aborted);
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

    /// <summary>A write, not setting up: an entity inserted or a transaction (a POST other than creating a table), a blob
    /// uploaded (a PUT below a container), a message sent (a POST to a queue's messages).</summary>
    private static bool IsWrite(HttpRequest request)
    {
        var path = request.Path.Value ?? "";
        return HttpMethods.IsPost(request.Method)
            ? !path.EndsWith("/Tables", StringComparison.Ordinal)
            : HttpMethods.IsPut(request.Method) && path.Count(c => c == '/') >= 3;
    }
}
