namespace BenchWeb.Apis;

/// <summary>The HTTP API for automation: the OpenAPI document (<c>/openapi/v1.json</c>), profiles and runs.</summary>
public static class ApiEndpoints
{
    public static WebApplication MapBenchWebApis(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapOpenApi();
        app.MapProfilesApi();
        app.MapRunsApi();

        // Without this, an unknown API address (or a run number that is not a number) would get the HTML not-found page.
        app.Map("/api/{**path}", (string? path) => ApiJson.NotFound($"There is no API at /api/{path}."))
            .ExcludeFromDescription();
        return app;
    }
}
