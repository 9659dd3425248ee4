using System.Security.Claims;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Azure App Service authentication ("Easy Auth"): App Service signs the user in and sends who they are in
/// <c>X-MS-CLIENT-PRINCIPAL</c> (base64 JSON of their claims). Registered only when enabled in the configuration:
/// anywhere else these headers are whatever the caller chose to send.</summary>
internal sealed class EasyAuthAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    UserDirectory users,
    IOptions<SecurityOptions> security) : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "EasyAuth";
    public const string PrincipalHeader = "X-MS-CLIENT-PRINCIPAL";
    public const string PrincipalIdHeader = "X-MS-CLIENT-PRINCIPAL-ID";
    public const string PrincipalNameHeader = "X-MS-CLIENT-PRINCIPAL-NAME";

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        var encoded = Request.Headers[PrincipalHeader].ToString();
        if (encoded.Length == 0)
        {
            return AuthenticateResult.NoResult();
        }

        ClientPrincipal? principal;
        try
        {
            principal = encoded.Length > 64 * 1024 ? null : JsonSerializer.Deserialize<ClientPrincipal>(Encoding.UTF8.GetString(Convert.FromBase64String(encoded)));
        }
        catch (Exception ex) when (ex is FormatException or JsonException)
        {
            principal = null;
        }

        var id = Request.Headers[PrincipalIdHeader].ToString();
        if (principal is null || id.Length is 0 or > 200)
        {
            return AuthenticateResult.Fail("The App Service principal headers cannot be read.");
        }

        var claims = principal.Claims.Where(c => c.Type is not null && c.Value is not null).Select(c => new Claim(c.Type!, c.Value!)).ToList();
        var roleTypes = new List<string>(security.Value.OpenIdConnect.RoleClaims) { "roles", principal.RoleType ?? ClaimTypes.Role };
        if (BenchWebPrincipal.RoleFromProvider(claims, roleTypes, security.Value) is not { } role)
        {
            return AuthenticateResult.Fail("Your account has no BenchWeb role. Ask an administrator for Viewer, Runner or Admin.");
        }

        var name = Request.Headers[PrincipalNameHeader].ToString() is { Length: > 0 } header ? header : id;
        var user = await users.SignedInAsync($"easyauth:{id}", name, role, SignInSources.EasyAuth, Context.RequestAborted);
        return user.Disabled
            ? AuthenticateResult.Fail("This account is disabled in BenchWeb.")
            : AuthenticateResult.Success(new AuthenticationTicket(BenchWebPrincipal.Create(user, role, SchemeName), SchemeName));
    }

    // As for browser sessions: a page request goes to the sign-in or "not allowed" page, an API request gets a problem.
    protected override async Task HandleChallengeAsync(AuthenticationProperties properties)
    {
        var failure = (await HandleAuthenticateOnceSafeAsync()).Failure?.Message;
        await AnswerAsync(StatusCodes.Status401Unauthorized, failure ?? "Sign in first.", SignInChallenge.SignInRedirect(Request, failure));
    }

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties) =>
        AnswerAsync(StatusCodes.Status403Forbidden, "Your role does not allow this.", SignInEndpoints.DeniedPage);

    private Task AnswerAsync(int status, string title, string page)
    {
        if (SignInChallenge.IsMachineRequest(Request))
        {
            return Results.Problem(statusCode: status, title: title).ExecuteAsync(Context);
        }

        Response.Redirect(page);
        return Task.CompletedTask;
    }

    private sealed record ClientPrincipal
    {
        [JsonPropertyName("auth_typ")]
        public string? AuthenticationType { get; init; }

        [JsonPropertyName("role_typ")]
        public string? RoleType { get; init; }

        [JsonPropertyName("claims")]
        public IReadOnlyList<ClientClaim> Claims { get; init; } = [];
    }

    private sealed record ClientClaim
    {
        [JsonPropertyName("typ")]
        public string? Type { get; init; }

        [JsonPropertyName("val")]
        public string? Value { get; init; }
    }
}
