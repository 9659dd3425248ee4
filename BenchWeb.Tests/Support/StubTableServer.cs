using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace BenchWeb.Tests.Support;

/// <summary>
/// A table endpoint that answers every entity write, point or transaction, with one fixed error: the throttles and
/// outages of Table Storage and the Cosmos DB Table API on demand, which Azurite never sends. Creating a table
/// succeeds, so a target opens against it.
/// </summary>
public sealed class StubTableServer : StubStorageEndpoint
{
    private readonly int _status;
    private readonly string _errorCode;
    private readonly IReadOnlyDictionary<string, string>? _headers;
    private readonly string? _message;
    private readonly string? _reasonPhrase;
    private readonly bool _failTableCreation;

    private StubTableServer(int status, string errorCode, IReadOnlyDictionary<string, string>? headers, string? message, string? reasonPhrase, bool failTableCreation)
    {
        _status = status;
        _errorCode = errorCode;
        _headers = headers;
        _message = message;
        _reasonPhrase = reasonPhrase;
        _failTableCreation = failTableCreation;
    }

    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteServer.DevelopmentKey};TableEndpoint={BaseAddress}/devstoreaccount1;";

    /// <summary>Starts a server whose writes get <paramref name="status"/> with the service's error
    /// <paramref name="errorCode"/> and the given extra headers.</summary>
    /// <param name="status">The status of every entity write.</param>
    /// <param name="errorCode">The service's error code (<c>x-ms-error-code</c>).</param>
    /// <param name="headers">Extra response headers.</param>
    /// <param name="message">The error message in the body (what the service chose to say).</param>
    /// <param name="reasonPhrase">The status line's reason phrase, when not the standard one.</param>
    /// <param name="failTableCreation">Answer creating the table with the same error too, so the target cannot open.</param>
    public static Task<StubTableServer> StartAsync(
        int status,
        string errorCode,
        IReadOnlyDictionary<string, string>? headers = null,
        string? message = null,
        string? reasonPhrase = null,
        bool failTableCreation = false) =>
        StartAsync(new StubTableServer(status, errorCode, headers, message, reasonPhrase, failTableCreation));

    protected override async Task HandleAsync(HttpContext context)
    {
        if (!_failTableCreation && context.Request.Path.Value?.EndsWith("/Tables", StringComparison.Ordinal) == true)
        {
            context.Response.StatusCode = StatusCodes.Status204NoContent;
            return;
        }

        await ReceiveWriteAsync(context, _status, _errorCode, _headers);
        if (_reasonPhrase is not null)
        {
            context.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = _reasonPhrase;
        }

        context.Response.ContentType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
        var error = new { code = _errorCode, message = new { lang = "en-US", value = _message ?? $"Stub answer {_status}." } };
        await context.Response.WriteAsync(JsonSerializer.Serialize(new Dictionary<string, object> { ["odata.error"] = error }));
    }
}
