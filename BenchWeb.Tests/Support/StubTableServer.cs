using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A table endpoint that answers every entity write, point or transaction, with one fixed error: the throttles and
/// outages of Table Storage and the Cosmos DB Table API on demand, which Azurite never sends. Creating a table
/// succeeds, so a target opens against it.
/// </summary>
public sealed class StubTableServer : IAsyncDisposable
{
    private readonly WebApplication _app;
    private int _writes;

    private StubTableServer(WebApplication app) => _app = app;

    /// <summary>Entity writes answered so far.</summary>
    public int Writes => Volatile.Read(ref _writes);

    /// <summary>The size in bytes of the body of every entity write received.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<long> BodyBytes { get; } = new();

    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteServer.DevelopmentKey};TableEndpoint={_app.Urls.First().TrimEnd('/')}/devstoreaccount1;";

    /// <summary>Starts a server whose writes get <paramref name="status"/> with the service's error
    /// <paramref name="errorCode"/> and the given extra headers.</summary>
    /// <param name="status">The status of every entity write.</param>
    /// <param name="errorCode">The service's error code (<c>x-ms-error-code</c>).</param>
    /// <param name="headers">Extra response headers.</param>
    /// <param name="message">The error message in the body (what the service chose to say).</param>
    /// <param name="reasonPhrase">The status line's reason phrase, when not the standard one.</param>
    /// <param name="failTableCreation">Answer creating the table with the same error too, so the target cannot open.</param>
    public static async Task<StubTableServer> StartAsync(
        int status,
        string errorCode,
        IReadOnlyDictionary<string, string>? headers = null,
        string? message = null,
        string? reasonPhrase = null,
        bool failTableCreation = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var server = new StubTableServer(app);
        app.Run(async context =>
        {
            if (!failTableCreation && context.Request.Path.Value?.EndsWith("/Tables", StringComparison.Ordinal) == true)
            {
                context.Response.StatusCode = StatusCodes.Status204NoContent;
                return;
            }

            Interlocked.Increment(ref server._writes);
            using (var body = new MemoryStream())
            {
                await context.Request.Body.CopyToAsync(body);
                server.BodyBytes.Enqueue(body.Length);
            }

            context.Response.StatusCode = status;
            if (reasonPhrase is not null)
            {
                context.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = reasonPhrase;
            }

            context.Response.Headers["x-ms-error-code"] = errorCode;
            foreach (var (name, value) in headers ?? new Dictionary<string, string>())
            {
                context.Response.Headers[name] = value;
            }

            context.Response.ContentType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
            var error = new { code = errorCode, message = new { lang = "en-US", value = message ?? $"Stub answer {status}." } };
            await context.Response.WriteAsync(JsonSerializer.Serialize(new Dictionary<string, object> { ["odata.error"] = error }));
        });
        await app.StartAsync();
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
