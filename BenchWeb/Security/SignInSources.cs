namespace BenchWeb.Security;

/// <summary>Where a user's identity comes from.</summary>
public static class SignInSources
{
    public const string Local = "Local";
    public const string OpenIdConnect = "OpenIdConnect";
    public const string EasyAuth = "EasyAuth";
}
