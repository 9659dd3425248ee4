using System.Security.Claims;
using BenchWeb.Data;

namespace BenchWeb.Guard.Security;

/// <summary>The signed-in user as the app's authorization sees them: id, name, and role claims for the role and
/// every role it includes.</summary>
public static class BenchWebPrincipal
{
    /// <summary>The user's id (<see cref="UserEntity.Id"/>).</summary>
    public const string UserIdClaim = ClaimTypes.NameIdentifier;

    public const string SourceClaim = "benchweb:source";

    /// <summary>The role the user acts with (the highest of their role claims).</summary>
    public const string RoleClaim = "benchweb:role";

    /// <summary>The API token a request signed in with (its id and name), for the audit log.</summary>
    public const string TokenIdClaim = "benchweb:token-id";

    public const string TokenNameClaim = "benchweb:token-name";

    public static ClaimsPrincipal Create(UserEntity user, string role, string authenticationType, ApiTokenEntity? token = null)
    {
        ArgumentNullException.ThrowIfNull(user);
        var identity = new ClaimsIdentity(authenticationType, ClaimTypes.Name, ClaimTypes.Role);
        identity.AddClaim(new Claim(UserIdClaim, user.Id));
        identity.AddClaim(new Claim(ClaimTypes.Name, user.Name));
        identity.AddClaim(new Claim(SourceClaim, user.Source));
        identity.AddClaim(new Claim(RoleClaim, role));
        if (token is not null)
        {
            identity.AddClaim(new Claim(TokenIdClaim, token.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)));
            identity.AddClaim(new Claim(TokenNameClaim, token.Name));
        }

        foreach (var included in BenchWebRoles.Including(role))
        {
            identity.AddClaim(new Claim(ClaimTypes.Role, included));
        }

        return new ClaimsPrincipal(identity);
    }

    public static string? UserId(this ClaimsPrincipal principal) => principal?.FindFirstValue(UserIdClaim);

    /// <summary>The role the user acts with; null when not signed in.</summary>
    public static string? Role(this ClaimsPrincipal principal) => BenchWebRoles.Parse(principal?.FindFirstValue(RoleClaim));

    /// <summary>The BenchWeb role a provider's claims give: the highest role any of the listed claims maps to
    /// (by <see cref="SecurityOptions.RoleMap"/>, or by a value named like a role), else the default role.</summary>
    public static string? RoleFromProvider(IEnumerable<Claim> claims, IEnumerable<string> roleClaimTypes, SecurityOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var types = roleClaimTypes.ToHashSet(StringComparer.OrdinalIgnoreCase);
        string? best = null;
        foreach (var claim in claims.Where(c => types.Contains(c.Type)))
        {
            var mapped = options.RoleMap.TryGetValue(claim.Value, out var role) ? BenchWebRoles.Parse(role) : BenchWebRoles.Parse(claim.Value);
            best = BenchWebRoles.Highest(best, mapped);
        }

        return best ?? BenchWebRoles.Parse(options.DefaultRole);
    }
}
