using System.Globalization;
using System.Net;
using BenchWeb.Guard.Security;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.AspNetCore.Components.Server.Circuits;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace BenchWeb.Hosting;

/// <summary>Sign-in, always on: a session cookie for browsers (after the local one-time link, an invitation, or
/// OpenID Connect), personal API tokens for pipelines, and App Service authentication's headers when enabled.
/// Every endpoint needs a role unless it says otherwise (the fallback policy).</summary>
public static class SecurityExtensions
{
    public const string DefaultScheme = "BenchWeb";
    public const string SessionCookie = "BenchWeb.Session";
    private const string CheckedAtKey = "benchweb.checked";
    private const string NoRoleFailure = "no-role";
    private static readonly string[] StandardScopes = ["openid", "profile"];

    public static WebApplicationBuilder AddBenchWebSecurity(this WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddOptions<SecurityOptions>().BindConfiguration(SecurityOptions.SectionName).ValidateDataAnnotations()
            .Validate(o => o.SignIn != SignInMode.OpenIdConnect || (!string.IsNullOrWhiteSpace(o.OpenIdConnect.Authority) && !string.IsNullOrWhiteSpace(o.OpenIdConnect.ClientId)),
                "BenchWeb:Security:SignIn is OpenIdConnect: set BenchWeb:Security:OpenIdConnect:Authority and ClientId (and ClientSecret).")
            .Validate(o => o.DefaultRole is null or "" || BenchWebRoles.Parse(o.DefaultRole) is not null, "BenchWeb:Security:DefaultRole is Viewer, Runner, Admin or empty.")
            .Validate(o => o.RoleMap.Values.All(r => BenchWebRoles.Parse(r) is not null), "Every BenchWeb:Security:RoleMap value is Viewer, Runner or Admin.")
            .Validate(o => o.EndpointAllowList is null || o.EndpointAllowList.All(p => EndpointAllowList.ValidatePattern(p) is null),
                "Every BenchWeb:Security:EndpointAllowList entry is a host name, optionally starting with '*.' for any one label (e.g. *.documents.azure.com).")
            .ValidateOnStart();
        var options = builder.Configuration.GetSection(SecurityOptions.SectionName).Get<SecurityOptions>() ?? new SecurityOptions();

        services.AddSingleton<UserDirectory>();
        services.AddSingleton<SessionStore>();
        services.AddSingleton<EndpointAllowList>();
        services.AddScoped<CurrentUser>();
        // A page's remote address, for the audit log: taken when its circuit starts.
        services.AddHttpContextAccessor();
        services.AddScoped<CircuitClientAddress>();
        services.AddScoped<CircuitHandler, ClientAddressCircuitHandler>();
        // Standard output itself, not a logger: the link must not reach a log sink.
        services.TryAddSingleton(sp => LocalAdminLink.Create(sp, Console.Out));
        if (options.SignIn == SignInMode.Local)
        {
            services.AddHostedService(sp => sp.GetRequiredService<LocalAdminLink>());
        }

        var authentication = services.AddAuthentication(DefaultScheme)
            .AddPolicyScheme(DefaultScheme, "BenchWeb", policy => policy.ForwardDefaultSelector = http =>
                ApiTokenAuthenticationHandler.BearerToken(http.Request) is not null ? ApiTokenAuthenticationHandler.SchemeName
                : options.EasyAuth.Enabled && http.Request.Headers.ContainsKey(EasyAuthAuthenticationHandler.PrincipalHeader) ? EasyAuthAuthenticationHandler.SchemeName
                : CookieAuthenticationDefaults.AuthenticationScheme)
            .AddCookie(CookieAuthenticationDefaults.AuthenticationScheme, cookie =>
            {
                cookie.Cookie.Name = SessionCookie;
                cookie.Cookie.HttpOnly = true;
                // Lax: the cookie does not travel with another site's POST, WebSocket or script request.
                cookie.Cookie.SameSite = SameSiteMode.Lax;
                cookie.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
                cookie.ExpireTimeSpan = TimeSpan.FromHours(options.SessionHours);
                cookie.SlidingExpiration = true;
                cookie.LoginPath = SignInEndpoints.SignInPage;
                cookie.AccessDeniedPath = SignInEndpoints.DeniedPage;
                cookie.Events.OnRedirectToLogin = context => SignInChallenge.IsMachineRequest(context.Request)
                    ? ProblemAsync(context.HttpContext, StatusCodes.Status401Unauthorized, "Sign in first: send a personal API token as 'Authorization: Bearer <token>'.")
                    : Redirect(context);
                cookie.Events.OnRedirectToAccessDenied = context => SignInChallenge.IsMachineRequest(context.Request)
                    ? ProblemAsync(context.HttpContext, StatusCodes.Status403Forbidden, "Your role does not allow this.")
                    : Redirect(context);
                // Every sign-in (the local links, OpenID Connect) starts a server-side session the cookie names.
                cookie.Events.OnSigningIn = context => context.HttpContext.RequestServices.GetRequiredService<SessionStore>()
                    .StartAsync(context.Principal?.UserId() ?? "", context.Properties, context.HttpContext.RequestAborted);
                cookie.Events.OnValidatePrincipal = ValidateSessionAsync;
            })
            .AddScheme<AuthenticationSchemeOptions, ApiTokenAuthenticationHandler>(ApiTokenAuthenticationHandler.SchemeName, null);
        if (options.EasyAuth.Enabled)
        {
            authentication.AddScheme<AuthenticationSchemeOptions, EasyAuthAuthenticationHandler>(EasyAuthAuthenticationHandler.SchemeName, null);
        }

        if (options.SignIn == SignInMode.OpenIdConnect)
        {
            authentication.AddOpenIdConnect(SignInSources.OpenIdConnectScheme, oidc => ConfigureOpenIdConnect(oidc, options.OpenIdConnect));
        }

        services.AddAuthorizationBuilder()
            .AddPolicy(Policies.Viewer, policy => policy.RequireAuthenticatedUser().RequireRole(BenchWebRoles.Viewer))
            .AddPolicy(Policies.Runner, policy => policy.RequireAuthenticatedUser().RequireRole(BenchWebRoles.Runner))
            .AddPolicy(Policies.Admin, policy => policy.RequireAuthenticatedUser().RequireRole(BenchWebRoles.Admin))
            // Whatever does not say otherwise needs a signed-in user with a role.
            .SetFallbackPolicy(new Microsoft.AspNetCore.Authorization.AuthorizationPolicyBuilder().RequireAuthenticatedUser().RequireRole(BenchWebRoles.Viewer).Build());
        services.AddCascadingAuthenticationState();
        return builder;
    }

    private static Task Redirect(RedirectContext<CookieAuthenticationOptions> context)
    {
        context.Response.Redirect(context.RedirectUri);
        return Task.CompletedTask;
    }

    private static Task ProblemAsync(HttpContext http, int status, string title) =>
        Results.Problem(statusCode: status, title: title).ExecuteAsync(http);

    /// <summary>On every request, a cookie's session must not have been ended on this instance (signed out, its user
    /// disabled) nor be past its absolute lifetime. Once a minute, it is checked against the database (ended on another
    /// instance) and its user: a disabled or removed user is signed out, and a local user's new role applies.</summary>
    private static async Task ValidateSessionAsync(CookieValidatePrincipalContext context)
    {
        var time = context.HttpContext.RequestServices.GetRequiredService<TimeProvider>();
        var sessions = context.HttpContext.RequestServices.GetRequiredService<SessionStore>();
        var now = time.GetUtcNow();
        if (SessionStore.Of(context.Properties) is not { } session || !sessions.MayLast(session))
        {
            await RejectAsync(context, sessions);
            return;
        }

        if (context.Properties.GetString(CheckedAtKey) is { } text
            && DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind, out var checkedAt)
            && now - checkedAt < SessionStore.CheckInterval)
        {
            return;
        }

        var users = context.HttpContext.RequestServices.GetRequiredService<UserDirectory>();
        var user = context.Principal?.UserId() is { } id ? await users.FindAsync(id, context.HttpContext.RequestAborted) : null;
        if (user is null || user.Disabled || BenchWebRoles.Parse(user.Role) is not { } role
            || !await sessions.IsActiveAsync(session.Id, context.HttpContext.RequestAborted))
        {
            await RejectAsync(context, sessions);
            return;
        }

        if (user.Source == SignInSources.Local && role != context.Principal!.Role())
        {
            context.ReplacePrincipal(BenchWebPrincipal.Create(user, role, SignInSources.Local));
        }

        context.Properties.SetString(CheckedAtKey, now.ToString("O", CultureInfo.InvariantCulture));
        context.ShouldRenew = true;
    }

    /// <summary>Refuses the cookie and removes it from the browser; its session, if it has one, ends for good.</summary>
    private static async Task RejectAsync(CookieValidatePrincipalContext context, SessionStore sessions)
    {
        context.RejectPrincipal();
        if (SessionStore.Of(context.Properties) is { } session)
        {
            await sessions.EndAsync(session.Id, CancellationToken.None);
        }

        await context.HttpContext.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
    }

    private static void ConfigureOpenIdConnect(OpenIdConnectOptions oidc, OpenIdConnectSignInOptions settings)
    {
        oidc.Authority = settings.Authority;
        oidc.ClientId = settings.ClientId;
        oidc.ClientSecret = settings.ClientSecret;
        oidc.ResponseType = "code";
        oidc.UsePkce = true;
        oidc.SaveTokens = false;
        oidc.SignInScheme = CookieAuthenticationDefaults.AuthenticationScheme;
        oidc.CallbackPath = CrossSiteRequestGuard.OpenIdConnectCallback;
        // Claims keep the provider's names ("roles", "groups", "name"), which the role map and settings use.
        oidc.MapInboundClaims = false;
        oidc.TokenValidationParameters.NameClaimType = "name";
        // Plain HTTP only for a provider on this machine (development and tests).
        oidc.RequireHttpsMetadata = !(Uri.TryCreate(settings.Authority, UriKind.Absolute, out var authority) && IsLoopback(authority));
        oidc.Scope.Clear();
        foreach (var scope in StandardScopes.Concat(settings.Scopes).Distinct(StringComparer.Ordinal))
        {
            oidc.Scope.Add(scope);
        }

        oidc.Events.OnTokenValidated = async context =>
        {
            var security = context.HttpContext.RequestServices.GetRequiredService<IOptions<SecurityOptions>>().Value;
            var claims = context.Principal?.Claims.ToList() ?? [];
            if (BenchWebPrincipal.RoleFromProvider(claims, security.OpenIdConnect.RoleClaims, security) is not { } role)
            {
                context.Fail(NoRoleFailure);
                return;
            }

            var subject = claims.FirstOrDefault(c => c.Type == "sub")?.Value ?? claims.FirstOrDefault(c => c.Type == "oid")?.Value ?? "";
            var issuer = claims.FirstOrDefault(c => c.Type == "iss")?.Value ?? settings.Authority ?? "";
            var name = claims.FirstOrDefault(c => c.Type is "name" or "preferred_username" or "email")?.Value ?? subject;
            var users = context.HttpContext.RequestServices.GetRequiredService<UserDirectory>();
            var user = await users.SignedInAsync($"oidc:{issuer}|{subject}", name, role, SignInSources.OpenIdConnect, context.HttpContext.RequestAborted);
            if (user.Disabled)
            {
                context.Fail("disabled");
                return;
            }

            context.Principal = BenchWebPrincipal.Create(user, role, SignInSources.OpenIdConnect);
        };
        oidc.Events.OnRemoteFailure = context =>
        {
            context.HandleResponse();
            context.Response.Redirect($"{SignInEndpoints.SignInPage}?error={(context.Failure?.Message == NoRoleFailure ? "norole" : "provider")}");
            return Task.CompletedTask;
        };
    }

    private static bool IsLoopback(Uri uri) =>
        uri.IsLoopback || (IPAddress.TryParse(uri.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
}
