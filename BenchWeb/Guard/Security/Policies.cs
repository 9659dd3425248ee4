namespace BenchWeb.Guard.Security;

/// <summary>Authorization policy names, one per role; each role includes the ones below it.</summary>
public static class Policies
{
    public const string Viewer = "Viewer";
    public const string Runner = "Runner";
    public const string Admin = "Admin";
}
