using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Personal API tokens: <c>Authorization: Bearer bw_…</c>. The token acts with its own role, never more
/// than its owner's current one; a revoked or expired token, or a disabled owner, is refused.</summary>
internal sealed class ApiTokenAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    UserDirectory users) : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "ApiToken";

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        if (BearerToken(Request) is not { } token)
        {
            return AuthenticateResult.NoResult();
        }

        if (await users.AuthenticateTokenAsync(token, Context.RequestAborted) is not { } found)
        {
            return AuthenticateResult.Fail("The API token is not valid: unknown, expired or revoked, or its owner may no longer sign in.");
        }

        return AuthenticateResult.Success(new AuthenticationTicket(BenchWebPrincipal.Create(found.User, found.Role, SchemeName, found.Token), SchemeName));
    }

    protected override async Task HandleChallengeAsync(AuthenticationProperties properties)
    {
        Response.Headers.WWWAuthenticate = "Bearer";
        var failure = (await HandleAuthenticateOnceSafeAsync()).Failure?.Message;
        await ProblemAsync(StatusCodes.Status401Unauthorized, failure ?? "Sign in first: send a personal API token as 'Authorization: Bearer <token>' (make one on your account page).");
    }

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties) =>
        ProblemAsync(StatusCodes.Status403Forbidden, "Your role does not allow this.");

    /// <summary>The token of an <c>Authorization: Bearer</c> header, if the request has one.</summary>
    public static string? BearerToken(HttpRequest request) =>
        request.Headers.Authorization.ToString() is { } header && header.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase)
            ? header["Bearer ".Length..].Trim()
            : null;

    private Task ProblemAsync(int status, string title) =>
        Results.Problem(statusCode: status, title: title).ExecuteAsync(Context);
}
