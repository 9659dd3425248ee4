namespace BenchWeb.Guard.Security;

/// <summary>The three roles, each including the ones before it: Viewer (read), Runner (launch and cancel runs, edit
/// profiles, import), Admin (secrets, settings, deleting, users, the audit log, the jobs dashboard).</summary>
public static class BenchWebRoles
{
    public const string Viewer = "Viewer";
    public const string Runner = "Runner";
    public const string Admin = "Admin";

    /// <summary>Lowest first.</summary>
    public static readonly IReadOnlyList<string> All = [Viewer, Runner, Admin];

    /// <summary>The role with this name, whatever its case; null for anything else.</summary>
    public static string? Parse(string? value) => All.FirstOrDefault(r => string.Equals(r, value?.Trim(), StringComparison.OrdinalIgnoreCase));

    /// <summary>0 for Viewer, 1 for Runner, 2 for Admin, -1 for no role.</summary>
    public static int Rank(string? role) => role is null ? -1 : All.ToList().IndexOf(role);

    /// <summary>The role and every role it includes, as role claims carry them.</summary>
    public static IEnumerable<string> Including(string role) => All.Take(Rank(role) + 1);

    /// <summary>The higher of two roles (null counts as none).</summary>
    public static string? Highest(string? a, string? b) => Rank(a) >= Rank(b) ? a : b;

    /// <summary>The lower of two roles.</summary>
    public static string Lowest(string a, string b) => Rank(a) <= Rank(b) ? a : b;
}
