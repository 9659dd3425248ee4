using System.Net;
using System.Security.Claims;

namespace BenchWeb.Guard.Security;

/// <summary>Who does something and from where, as the audit log records it. Built where a request or a page acts
/// (from its signed-in principal and remote address) and passed explicitly to the service that acts, so a page and
/// the HTTP API doing the same thing record the same.</summary>
/// <param name="UserId">The user's id (<see cref="BenchWebPrincipal.UserIdClaim"/>).</param>
/// <param name="Name">The user's display name.</param>
/// <param name="Role">The role they act with (an API token's may be lower than its owner's).</param>
/// <param name="Via">How they signed in (<see cref="SignInSources"/>) or the API token they used.</param>
/// <param name="RemoteIp">The request's remote address, or for a page the address its circuit connected from.</param>
public sealed record Actor(string UserId, string Name, string Role, string Via, string? RemoteIp)
{
    public static Actor From(ClaimsPrincipal principal, IPAddress? remoteIp)
    {
        ArgumentNullException.ThrowIfNull(principal);
        var via = principal.FindFirstValue(BenchWebPrincipal.TokenNameClaim) is { } token
            ? $"API token #{principal.FindFirstValue(BenchWebPrincipal.TokenIdClaim)} “{token}”"
            : principal.FindFirstValue(BenchWebPrincipal.SourceClaim) ?? principal.Identity?.AuthenticationType ?? "unknown";
        return new Actor(
            principal.UserId() ?? "(not signed in)",
            principal.Identity?.Name ?? "",
            principal.Role() ?? "",
            via,
            Address(remoteIp));
    }

    /// <summary>An address as people read it: an IPv4 client of a dual-stack socket shows as IPv4.</summary>
    public static string? Address(IPAddress? address) =>
        address is null ? null : (address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address).ToString();
}
