using BenchWeb.Guard.Security;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing.Template;

namespace BenchWeb.Apis;

/// <summary>The HTTP API for automation: the OpenAPI document (<c>/openapi/v1.json</c>), profiles, runs and uploaded files.</summary>
public static class ApiEndpoints
{
    public static WebApplication MapBenchWebApis(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapOpenApi().RequireAuthorization(Policies.Viewer);
        app.MapProfilesApi();
        app.MapRunsApi();
        app.MapSweepsApi();
        app.MapFilesApi();
        app.MapAuditApi();
        app.MapKillSwitchApi();
        app.MapAgentsApi();

        // Without this, an unknown API address (or a run number that is not a number) would get the HTML not-found page.
        // Routing passes over an endpoint whose body type does not match, so a body of another type lands here too:
        // it gets 415 naming the types that endpoint takes (JSON, or a file upload's types).
        app.Map("/api/{**path}", (string? path, HttpRequest request, EndpointDataSource endpoints) =>
            {
                if (request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0)
                {
                    var accepted = AcceptedAt(endpoints, request);
                    if (accepted.Count > 0 || !IsJson(request.ContentType))
                    {
                        var types = accepted.Count > 0 ? string.Join(" or ", accepted) : "application/json";
                        return Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: $"Send the body as {types}.");
                    }
                }

                return ApiJson.NotFound($"There is no API at /api/{path}.");
            })
            .ExcludeFromDescription();
        return app;
    }

    /// <summary>The body types the endpoint at this address and method takes, if it says (none when there is no such endpoint).</summary>
    private static List<string> AcceptedAt(EndpointDataSource endpoints, HttpRequest request) =>
        endpoints.Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods.Contains(request.Method, StringComparer.OrdinalIgnoreCase) == true)
            .Where(e => new TemplateMatcher(new RouteTemplate(e.RoutePattern), []).TryMatch(request.Path, []))
            .SelectMany(e => e.Metadata.GetMetadata<IAcceptsMetadata>()?.ContentTypes ?? [])
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .ToList();

    private static bool IsJson(string? contentType) =>
        Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var type)
        && (type.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase) || type.Suffix.Equals("json", StringComparison.OrdinalIgnoreCase));
}
