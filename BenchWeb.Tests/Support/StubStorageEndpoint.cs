using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>
/// An Azure Storage endpoint on a loopback port that answers every write with one fixed error: the throttles and
/// failures of the real services on demand, which Azurite never sends. A subclass says which requests set up (creating
/// the table, container or queue, answered with success) and what body an error carries.
/// </summary>
public abstract class StubStorageEndpoint : IAsyncDisposable
{
    private WebApplication? _app;
    private int _writes;

    /// <summary>Writes answered so far.</summary>
    public int Writes => Volatile.Read(ref _writes);

    /// <summary>The size in bytes of the body of every write received.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<long> BodyBytes { get; } = new();

    /// <summary>The endpoint's base address, without a trailing slash.</summary>
    protected string BaseAddress => (_app ?? throw new InvalidOperationException("Not started.")).Urls.First().TrimEnd('/');

    /// <summary>Starts <paramref name="stub"/> on a free loopback port, answering with <see cref="HandleAsync"/>.</summary>
    protected static async Task<T> StartAsync<T>(T stub)
        where T : StubStorageEndpoint
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        app.Run(stub.HandleAsync);
        stub._app = app;
        await app.StartAsync();
        return stub;
    }

    /// <summary>Answers one request.</summary>
    protected abstract Task HandleAsync(HttpContext context);

    /// <summary>Counts a write, reads its body, and sets the error's status, the service's error code and extra headers.</summary>
    protected async Task ReceiveWriteAsync(HttpContext context, int status, string errorCode, IReadOnlyDictionary<string, string>? headers)
    {
        Interlocked.Increment(ref _writes);
        using (var body = new MemoryStream())
        {
            await context.Request.Body.CopyToAsync(body);
            BodyBytes.Enqueue(body.Length);
        }

        context.Response.StatusCode = status;
        context.Response.Headers["x-ms-error-code"] = errorCode;
        foreach (var (name, value) in headers ?? new Dictionary<string, string>())
        {
            context.Response.Headers[name] = value;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }

        GC.SuppressFinalize(this);
    }
}
