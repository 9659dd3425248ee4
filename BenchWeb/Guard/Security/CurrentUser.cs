using System.Security.Claims;
using Microsoft.AspNetCore.Components.Authorization;

namespace BenchWeb.Guard.Security;

/// <summary>The signed-in user of a page (its circuit). Pages hide what a role may not do; their handlers check
/// again here, so a crafted event cannot do it either.</summary>
public sealed class CurrentUser(AuthenticationStateProvider authentication, CircuitClientAddress address)
{
    public async Task<ClaimsPrincipal> PrincipalAsync() => (await authentication.GetAuthenticationStateAsync()).User;

    /// <summary>Whether the user has this role (or one above it).</summary>
    public async Task<bool> HasRoleAsync(string role) => (await PrincipalAsync()).IsInRole(role);

    /// <summary>The role the user acts with; null when not signed in.</summary>
    public async Task<string?> RoleAsync() => (await PrincipalAsync()).Role();

    /// <summary>The user and the address their circuit connected from, for the services that record what a page does.</summary>
    public async Task<Actor> ActorAsync() => Actor.From(await PrincipalAsync(), address.RemoteIp);

    /// <summary>What a page says when a role is missing.</summary>
    public static string NotAllowed(string role) => $"This needs the {role} role; ask an administrator.";
}
