using System.Net;
using System.Text;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Web.Security;

/// <summary>Personal API tokens: kept as hashes only, revocable, expiring, and never acting above their owner's role.</summary>
[IntegrationTest]
public sealed class ApiTokenTests
{
    private static readonly string ShortRun = """{"plan":{"name":"token run","stop":{"durationSeconds":1}}}""";

    [Fact]
    public async Task Token_IsStoredAsItsHashOnly()
    {
        await using var app = new BenchWebFactory();
        var token = await app.Services.CreateTokenAsync(BenchWebRoles.Runner);

        await using var db = await app.Services.OpenDatabaseAsync();
        var stored = await db.ApiTokens.AsNoTracking().SingleAsync();

        Assert.Equal(SecretToken.Hash(token), stored.TokenHash);
        Assert.DoesNotContain(token, stored.TokenHash + stored.Prefix + stored.Name, StringComparison.Ordinal);
        Assert.StartsWith(stored.Prefix, token, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Token_Revoked_IsRefused()
    {
        await using var app = new BenchWebFactory();
        using var http = await app.CreateClientAsync(BenchWebRoles.Viewer);
        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync("/api/runs")).StatusCode);

        var id = (await app.Get<UserDirectory>().TokensAsync(null, CancellationToken.None)).Single().Id;
        Assert.True(await app.Get<UserDirectory>().RevokeTokenAsync(id, userId: null, TestActors.Admin, CancellationToken.None));

        var refused = await http.GetAsync("/api/runs");
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Contains("not valid", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Token_PastItsExpiry_IsRefused()
    {
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        await using var app = new BenchWebFactory(services: s => s.AddSingleton<TimeProvider>(time));
        var users = app.Get<UserDirectory>();
        var owner = await users.SignedInAsync(UserDirectory.LocalId("ivy"), "ivy", BenchWebRoles.Runner, SignInSources.Local, CancellationToken.None);
        var (_, token) = await users.CreateTokenAsync(owner.Id, owner.Role, "a week", BenchWebRoles.Viewer, days: 7, TestActors.Admin, CancellationToken.None);
        using var http = app.CreateClient().WithToken(token);
        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync("/api/runs")).StatusCode);

        time.Advance(TimeSpan.FromDays(7) + TimeSpan.FromMinutes(1));

        Assert.Equal(HttpStatusCode.Unauthorized, (await http.GetAsync("/api/runs")).StatusCode);
    }

    [Fact]
    public async Task Token_ActsWithItsOwnersCurrentRoleAtMost()
    {
        await using var app = new BenchWebFactory();
        var users = app.Get<UserDirectory>();
        var owner = await users.SignedInAsync(UserDirectory.LocalId("jo"), "jo", BenchWebRoles.Runner, SignInSources.Local, CancellationToken.None);
        var (_, token) = await users.CreateTokenAsync(owner.Id, owner.Role, "pipeline", BenchWebRoles.Runner, null, TestActors.Admin, CancellationToken.None);
        using var http = app.CreateClient().WithToken(token);
        Assert.Equal(HttpStatusCode.Accepted, (await http.PostAsync("/api/runs", Json(ShortRun))).StatusCode);

        await users.SetRoleAsync(owner.Id, BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);

        Assert.Equal(HttpStatusCode.Forbidden, (await http.PostAsync("/api/runs", Json(ShortRun))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync("/api/runs")).StatusCode);
    }

    [Fact]
    public async Task CreateToken_AboveTheOwnersRole_IsRefused()
    {
        await using var app = new BenchWebFactory();
        var users = app.Get<UserDirectory>();

        var ex = await Assert.ThrowsAsync<ArgumentException>(() =>
            users.CreateTokenAsync(UserDirectory.LocalId("kim"), BenchWebRoles.Viewer, "escalation", BenchWebRoles.Admin, null, TestActors.Admin, CancellationToken.None));

        Assert.Contains("at most (Viewer)", ex.Message, StringComparison.Ordinal);
        Assert.Empty(await users.TokensAsync(null, CancellationToken.None));
    }

    [Theory]
    [InlineData("Bearer bw_not-a-real-token")]
    [InlineData("Bearer ")]
    [InlineData("Bearer bwa_the-admin-link-token-is-no-api-token")]
    public async Task UnknownToken_IsRefused(string header)
    {
        await using var app = new BenchWebFactory();
        using var http = app.CreateClient();
        http.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", header);

        Assert.Equal(HttpStatusCode.Unauthorized, (await http.GetAsync("/api/runs")).StatusCode);
    }

    private static StringContent Json(string body) => new(body, Encoding.UTF8, "application/json");
}
