using BenchWeb.Security;

namespace BenchWeb.Apis;

/// <summary>The HTTP API for automation: the OpenAPI document (<c>/openapi/v1.json</c>), profiles and runs.</summary>
public static class ApiEndpoints
{
    public static WebApplication MapBenchWebApis(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapOpenApi().RequireAuthorization(Policies.Viewer);
        app.MapProfilesApi();
        app.MapRunsApi();
        app.MapAuditApi();
        app.MapKillSwitchApi();

        // Without this, an unknown API address (or a run number that is not a number) would get the HTML not-found page.
        // Routing passes over an endpoint whose body type does not match, so a body that is not JSON lands here too.
        app.Map("/api/{**path}", (string? path, HttpRequest request) =>
                (request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0) && !IsJson(request.ContentType)
                    ? Results.Problem(statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Send the body as application/json.")
                    : ApiJson.NotFound($"There is no API at /api/{path}."))
            .ExcludeFromDescription();
        return app;
    }

    private static bool IsJson(string? contentType) =>
        Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var type)
        && (type.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase) || type.Suffix.Equals("json", StringComparison.OrdinalIgnoreCase));
}
