namespace BenchWeb.Guard.Security;

/// <summary>Refuses state changes a browser makes on behalf of another site. Browser sessions are cookies, which
/// a browser attaches to requests any page makes; so every unsafe request (POST, PUT, PATCH, DELETE) and every
/// WebSocket (the Blazor circuit, the runs hub) that carries an <c>Origin</c> (or, lacking one, a <c>Referer</c>)
/// must come from this app's own host. Requests with an API token carry no ambient credential and pass. Forms of
/// the app's pages also carry an antiforgery token, checked by the framework.</summary>
internal sealed class CrossSiteRequestGuard(RequestDelegate next)
{
    /// <summary>The identity provider posts its answer here from its own origin; state and nonce protect it.</summary>
    public static readonly PathString OpenIdConnectCallback = "/signin-oidc";

    public Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var request = context.Request;
        var changesState = !(HttpMethods.IsGet(request.Method) || HttpMethods.IsHead(request.Method) || HttpMethods.IsOptions(request.Method) || HttpMethods.IsTrace(request.Method));
        if ((!changesState && !IsWebSocketUpgrade(request))
            || ApiTokenAuthenticationHandler.BearerToken(request) is not null
            || request.Path.StartsWithSegments(OpenIdConnectCallback))
        {
            return next(context);
        }

        var source = request.Headers.Origin.ToString() is { Length: > 0 } origin ? origin : request.Headers.Referer.ToString();
        if (source.Length == 0 || IsSameHost(source, request.Host))
        {
            // No Origin and no Referer: not a browser (browsers send Origin on every cross-origin POST and WebSocket),
            // so no cookie of a victim's browser came with it.
            return next(context);
        }

        context.Response.StatusCode = StatusCodes.Status403Forbidden;
        return Results.Problem(statusCode: StatusCodes.Status403Forbidden, title: "Cross-site request refused: it came from another site than BenchWeb's own pages.").ExecuteAsync(context);
    }

    /// <summary>A request to open a WebSocket, by its headers. The framework's own <c>IsWebSocketRequest</c> is false here:
    /// SignalR and the Blazor circuit add the WebSocket feature in their own endpoints, after this guard has run.</summary>
    internal static bool IsWebSocketUpgrade(HttpRequest request) =>
        request.Headers.Upgrade.Any(value => value is not null && value.Contains("websocket", StringComparison.OrdinalIgnoreCase));

    internal static bool IsSameHost(string source, HostString host) =>
        Uri.TryCreate(source, UriKind.Absolute, out var uri)
        && uri.Scheme is "http" or "https"
        && string.Equals(uri.IsDefaultPort ? uri.Host : $"{uri.Host}:{uri.Port}", host.Value, StringComparison.OrdinalIgnoreCase);
}
