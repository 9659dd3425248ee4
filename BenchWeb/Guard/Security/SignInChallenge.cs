namespace BenchWeb.Guard.Security;

/// <summary>How a request without the right sign-in is answered: a page request goes to the sign-in page, a machine's
/// request gets a status code. Shared by the session cookie's events and App Service authentication's handler.</summary>
internal static class SignInChallenge
{
    /// <summary>The sign-in page for a page request that needs a signed-in user (with the reason when there is one).</summary>
    internal static string SignInRedirect(HttpRequest request, string? failure) =>
        $"{SignInEndpoints.SignInPage}?{(failure is null ? "" : "error=norole&")}returnUrl={Uri.EscapeDataString(request.Path + request.QueryString)}";

    /// <summary>API clients, the hub and the jobs dashboard's data get status codes, not the sign-in page.</summary>
    internal static bool IsMachineRequest(HttpRequest request) =>
        request.Path.StartsWithSegments("/api") || request.Path.StartsWithSegments("/openapi") || request.Path.StartsWithSegments("/hubs")
        || request.Headers.Accept.ToString().Contains("application/json", StringComparison.OrdinalIgnoreCase);
}
