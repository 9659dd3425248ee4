using System.Net.Http.Headers;
using BenchWeb.Guard.Security;
using Microsoft.Extensions.DependencyInjection;

namespace BenchWeb.Tests.Support;

/// <summary>Signed-in callers for a hosted app: a local user per role and a personal API token for it, made the way
/// the account page makes them.</summary>
public static class AppUsers
{
    /// <summary>A new API token acting as a user with <paramref name="role"/> (the user is made on first use).</summary>
    public static async Task<string> CreateTokenAsync(this IServiceProvider services, string role)
    {
        var users = services.GetRequiredService<UserDirectory>();
        var user = await users.SignedInAsync(UserDirectory.LocalId($"test {role}"), $"test {role}", role, SignInSources.Local, CancellationToken.None);
        var actor = new Actor(user.Id, user.Name, role, SignInSources.Local, "192.0.2.1");
        var (_, token) = await users.CreateTokenAsync(user.Id, role, $"tests as {role}", role, days: null, actor, CancellationToken.None);
        return token;
    }

    /// <summary>Sends the token with every request of this client.</summary>
    public static HttpClient WithToken(this HttpClient http, string token)
    {
        ArgumentNullException.ThrowIfNull(http);
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return http;
    }
}
