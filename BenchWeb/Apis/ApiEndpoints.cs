using BenchWeb.Guard.Security;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing.Patterns;
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
        // Routing passes over an endpoint whose body type does not match, and one of another method, so those land here too:
        // a body of another type (or none, where the endpoint takes one) gets 415 naming the types that endpoint takes; another
        // method gets 405 with the methods the address has (Allow).
        app.Map("/api/{**path}", (string? path, HttpRequest request, HttpResponse response, EndpointDataSource endpoints) =>
            {
                var here = EndpointsAt(endpoints, request);
                var same = here.Where(e => e.Accepts.Count > 0 && e.Methods.Contains(request.Method, StringComparer.OrdinalIgnoreCase)).ToList();
                if (same.Count > 0)
                {
                    var accepted = same.SelectMany(e => e.Accepts).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
                    var types = accepted.Count > 0 ? string.Join(" or ", accepted) : "application/json";
                    // A body of another type is told what type it must be; a request without one, what to send when there is nothing to say.
                    var detail = HasBody(request)
                        ? $"The body must be {(accepted.Count == 0 || accepted.Any(IsJson) ? "JSON" : types)} (Content-Type: {types}), not {SentType(request.ContentType)}."
                        : IsJson(request.ContentType) || accepted.Any(IsJson) ? "Send an empty JSON object ({}) where there is nothing to say." : null;
                    return Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: $"Send the body as {types}.", detail: detail);
                }

                if (here.Count > 0 && !here.Any(e => e.Methods.Contains(request.Method, StringComparer.OrdinalIgnoreCase)))
                {
                    var allowed = here.SelectMany(e => e.Methods).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.Ordinal).ToList();
                    response.Headers.Allow = string.Join(", ", allowed);
                    return Results.Problem(statusCode: StatusCodes.Status405MethodNotAllowed, title: $"/api/{path} takes {string.Join(", ", allowed)}, not {request.Method}.");
                }

                if (HasBody(request) && !IsJson(request.ContentType))
                {
                    return Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Send the body as application/json.");
                }

                return ApiJson.NotFound($"There is no API at /api/{path}.");
            })
            .ExcludeFromDescription();
        return app;
    }

    /// <summary>The API endpoints at this address, each with its methods and the body types it takes, if it says.</summary>
    private static List<(IReadOnlyList<string> Methods, IReadOnlyList<string> Accepts)> EndpointsAt(EndpointDataSource endpoints, HttpRequest request) =>
        [.. endpoints.Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IHttpMethodMetadata>() is { HttpMethods.Count: > 0 }
                && e.RoutePattern.RawText?.TrimStart('/').StartsWith("api/", StringComparison.OrdinalIgnoreCase) == true
                && !e.RoutePattern.RawText.Contains("**", StringComparison.Ordinal))
            .Where(e => Matches(e.RoutePattern, request.Path))
            .Select(e => (e.Metadata.GetMetadata<IHttpMethodMetadata>()!.HttpMethods, e.Metadata.GetMetadata<IAcceptsMetadata>()?.ContentTypes ?? []))];

    // The address fits the pattern, its numbers being numbers (the API's only constraints: {id:long}, {n:int}).
    private static bool Matches(RoutePattern pattern, PathString path)
    {
        var values = new RouteValueDictionary();
        return new TemplateMatcher(new RouteTemplate(pattern), []).TryMatch(path, values)
            && pattern.Parameters.All(p => p.ParameterPolicies.All(policy => policy.Content is not ("long" or "int")
                || long.TryParse(values[p.Name]?.ToString(), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out _)));
    }

    // The type the request says its body is, as the reader may quote it back: its media type only, never a long header.
    private static string SentType(string? contentType) =>
        Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var type) && type.MediaType.Length is > 0 and <= 100
            ? type.MediaType.Value!
            : string.IsNullOrWhiteSpace(contentType) ? "a body without a Content-Type" : "a body of another type";

    private static bool HasBody(HttpRequest request) => request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0;

    private static bool IsJson(string? contentType) =>
        Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var type)
        && (type.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase) || type.Suffix.Equals("json", StringComparison.OrdinalIgnoreCase));
}
