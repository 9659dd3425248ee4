using BenchWeb.Data;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace BenchWeb.Guard.Security;

/// <summary>Signing in and out: the local one-time links (the admin's, see <see cref="LocalAdminLink"/>, and invitations), the
/// identity provider's challenge, and signing out.</summary>
public static class SignInEndpoints
{
    public const string SignInPage = "/signin";
    public const string DeniedPage = "/denied";
    public const string ProviderPath = "/signin/provider";
    public const string SignOutPath = "/signout";

    public static IEndpointRouteBuilder MapSignIn(this IEndpointRouteBuilder endpoints)
    {
        // The link's own request (GET) and the sign-in page's form (POST, with the antiforgery token) both sign in.
        endpoints.MapGet(LocalAdminLink.Path, (string? token, HttpContext http, CancellationToken cancellationToken) => LocalAsync(token, http, cancellationToken))
            .AllowAnonymous().ExcludeFromDescription();
        endpoints.MapPost(LocalAdminLink.Path, ([FromForm] string? token, HttpContext http, CancellationToken cancellationToken) => LocalAsync(token?.Trim(), http, cancellationToken))
            .AllowAnonymous().ExcludeFromDescription();
        endpoints.MapGet(ProviderPath, (string? returnUrl, IOptions<SecurityOptions> options) =>
                options.Value.SignIn == SignInMode.OpenIdConnect
                    ? Results.Challenge(new AuthenticationProperties { RedirectUri = LocalReturnUrl(returnUrl) }, [SignInSources.OpenIdConnectScheme])
                    : Results.Redirect(SignInPage))
            .AllowAnonymous().ExcludeFromDescription();
        endpoints.MapPost(SignOutPath, async ([FromForm] string? returnUrl, HttpContext http) =>
            {
                // The session ends server-side: a copy of the cookie saved before signing out is refused from now on.
                var signedIn = await http.AuthenticateAsync(CookieAuthenticationDefaults.AuthenticationScheme);
                if (SessionStore.Of(signedIn.Properties) is { } session)
                {
                    await http.RequestServices.GetRequiredService<SessionStore>().EndAsync(session.Id, CancellationToken.None);
                }

                await http.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
                return Results.Redirect($"{SignInPage}?signedOut=1");
            })
            .AllowAnonymous().ExcludeFromDescription();
        return endpoints;
    }

    private static async Task<IResult> LocalAsync(string? token, HttpContext http, CancellationToken cancellationToken)
    {
        var options = http.RequestServices.GetRequiredService<IOptions<SecurityOptions>>().Value;
        if (options.SignIn != SignInMode.Local || string.IsNullOrEmpty(token) || token.Length > 200)
        {
            return Results.Redirect($"{SignInPage}?error=link");
        }

        var users = http.RequestServices.GetRequiredService<UserDirectory>();
        UserEntity? user = null;
        if (await http.RequestServices.GetRequiredService<LocalAdminLink>().TryRedeemAsync(token, cancellationToken))
        {
            user = await users.SignedInAsync(UserDirectory.LocalAdminId, "admin", BenchWebRoles.Admin, SignInSources.Local, cancellationToken);
        }
        else if (await users.RedeemInvitationAsync(token, cancellationToken) is { } invited)
        {
            user = invited;
        }

        if (user is null || user.Disabled || BenchWebRoles.Parse(user.Role) is not { } role)
        {
            return Results.Redirect($"{SignInPage}?error=link");
        }

        await http.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, BenchWebPrincipal.Create(user, role, SignInSources.Local), new AuthenticationProperties { IsPersistent = true });
        return Results.Redirect("/");
    }

    /// <summary>Only a path of this app: a sign-in never sends its user to another site.</summary>
    public static string LocalReturnUrl(string? returnUrl) =>
        returnUrl is { Length: > 0 } url && url.StartsWith('/') && !url.StartsWith("//", StringComparison.Ordinal) && !url.StartsWith("/\\", StringComparison.Ordinal) ? url : "/";
}
