using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Support;

/// <summary>An OTLP/HTTP collector on a loopback port that keeps every export it receives and answers 200 with an empty
/// body (an export response with no partial failure).</summary>
public sealed class OtlpCollectorStub : IAsyncDisposable
{
    private WebApplication? _app;

    /// <summary>Every request received: its path, content type and body.</summary>
    public ConcurrentQueue<OtlpExport> Exports { get; } = new();

    /// <summary>The collector's base address, e.g. <c>http://127.0.0.1:40123/</c>.</summary>
    public Uri BaseAddress => new((_app ?? throw new InvalidOperationException("Not started.")).Urls.First().TrimEnd('/') + "/");

    public static async Task<OtlpCollectorStub> StartAsync()
    {
        var stub = new OtlpCollectorStub();
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        app.Run(async context =>
        {
            using var body = new MemoryStream();
            await context.Request.Body.CopyToAsync(body);
            stub.Exports.Enqueue(new OtlpExport(context.Request.Method, context.Request.Path, context.Request.ContentType, body.ToArray()));
            context.Response.StatusCode = StatusCodes.Status200OK;
            context.Response.ContentType = "application/x-protobuf";
        });
        stub._app = app;
        await app.StartAsync();
        return stub;
    }

    /// <summary>The exports posted to <paramref name="path"/> (<c>/v1/metrics</c>, <c>/v1/traces</c>).</summary>
    public IReadOnlyList<OtlpExport> To(string path) => [.. Exports.Where(e => e.Path == path)];

    public async ValueTask DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }
}

/// <summary>One request an <see cref="OtlpCollectorStub"/> received.</summary>
public sealed record OtlpExport(string Method, string Path, string? ContentType, byte[] Body)
{
    /// <summary>Whether the body holds these bytes anywhere.</summary>
    public bool Contains(ReadOnlySpan<byte> bytes) => Body.AsSpan().IndexOf(bytes) >= 0;

    /// <summary>Whether the body holds an OTLP attribute (a <c>KeyValue</c> message) with this key and string value.</summary>
    public bool HasAttribute(string key, string value) => Contains(OtlpBytes.StringAttribute(key, value));
}
