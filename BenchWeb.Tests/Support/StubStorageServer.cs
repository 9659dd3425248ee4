using System.Security;
using BenchEngine.Targets;
using Microsoft.AspNetCore.Http;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A blob or queue endpoint that answers every write (a blob upload, a sent message) with one fixed error and a storage
/// error body. Creating the container or queue (a PUT of the account's resource itself) succeeds, so a target opens.
/// </summary>
public sealed class StubStorageServer : StubStorageEndpoint
{
    private readonly StorageService _service;
    private readonly int _status;
    private readonly string _errorCode;
    private readonly IReadOnlyDictionary<string, string>? _headers;
    private readonly string? _message;

    private StubStorageServer(StorageService service, int status, string errorCode, IReadOnlyDictionary<string, string>? headers, string? message)
    {
        _service = service;
        _status = status;
        _errorCode = errorCode;
        _headers = headers;
        _message = message;
    }

    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteService.DevelopmentKey};{_service.Name}Endpoint={BaseAddress}/devstoreaccount1;";

    /// <summary>Starts a server whose writes get <paramref name="status"/> with the service's error code, the given extra
    /// headers and a storage error body holding <paramref name="message"/> (what the service chose to say).</summary>
    public static Task<StubStorageServer> StartAsync(
        StorageService service, int status, string errorCode, IReadOnlyDictionary<string, string>? headers = null, string? message = null) =>
        StartAsync(new StubStorageServer(service, status, errorCode, headers, message));

    protected override async Task HandleAsync(HttpContext context)
    {
        // /devstoreaccount1/name: creating the container (?restype=container) or the queue.
        if (HttpMethods.IsPut(context.Request.Method) && context.Request.Path.Value?.Count(c => c == '/') == 2)
        {
            context.Response.StatusCode = StatusCodes.Status201Created;
            return;
        }

        await ReceiveWriteAsync(context, _status, _errorCode, _headers);
        context.Response.ContentType = "application/xml";
        var text = SecurityElement.Escape(_message ?? $"Stub answer {_status}.");
        await context.Response.WriteAsync($"""<?xml version="1.0" encoding="utf-8"?><Error><Code>{_errorCode}</Code><Message>{text}</Message></Error>""");
    }
}
