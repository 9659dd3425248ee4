namespace BenchWeb.Guard.Security;

/// <summary>Where a user's identity comes from.</summary>
public static class SignInSources
{
    public const string Local = "Local";
    public const string OpenIdConnect = "OpenIdConnect";
    public const string EasyAuth = "EasyAuth";

    /// <summary>The authentication scheme of the OpenID Connect sign-in (<c>oidc</c>).</summary>
    public const string OpenIdConnectScheme = "oidc";
}
