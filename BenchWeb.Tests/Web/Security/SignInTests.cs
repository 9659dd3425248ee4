using System.Net;
using System.Text.RegularExpressions;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace BenchWeb.Tests.Web.Security;

/// <summary>Local sign-in: the administrator's one-time link printed at start, one-time invitations, the token form,
/// sessions that end when a user is disabled, and signing out.</summary>
[IntegrationTest]
public sealed partial class SignInTests
{
    [Fact]
    public async Task AdminLink_SignsInAsTheAdministrator_OnceOnly()
    {
        await using var app = new BenchWebFactory();
        var link = app.Get<LocalAdminLink>().Link!;
        using var browser = Browser(app);

        var first = await browser.GetAsync(link.PathAndQuery);
        var admin = await browser.GetAsync("/admin/users");
        using var other = Browser(app);
        var again = await other.GetAsync(link.PathAndQuery);

        Assert.Equal(("/", HttpStatusCode.OK), (first.Headers.Location?.OriginalString, admin.StatusCode));
        Assert.Equal("/signin?error=link", again.Headers.Location?.OriginalString);
        Assert.Equal("/signin?ReturnUrl=%2F", (await other.GetAsync("/")).Headers.Location?.PathAndQuery);
    }

    [Fact]
    public async Task AdminLink_AfterADay_NoLongerSignsIn()
    {
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        await using var app = new BenchWebFactory(services: s => s.AddSingleton<TimeProvider>(time));
        var link = app.Get<LocalAdminLink>().Link!;

        time.Advance(LocalAdminLink.Lifetime + TimeSpan.FromMinutes(1));
        using var browser = Browser(app);
        var response = await browser.GetAsync(link.PathAndQuery);

        Assert.Equal("/signin?error=link", response.Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task Invitation_SignsInTheInvitedUserWithItsRole_OnceOnly()
    {
        await using var app = new BenchWebFactory();
        var token = await app.Get<UserDirectory>().InviteAsync("Erin", BenchWebRoles.Viewer, TestActors.Admin, CancellationToken.None);
        using var browser = Browser(app);

        var signIn = await browser.GetAsync($"/signin/local?token={token}");
        var runs = await browser.GetAsync("/runs");
        var admin = await browser.GetAsync("/admin/users");
        using var other = Browser(app);
        var again = await other.GetAsync($"/signin/local?token={token}");

        Assert.Equal("/", signIn.Headers.Location?.OriginalString);
        Assert.Equal(HttpStatusCode.OK, runs.StatusCode);
        Assert.StartsWith("/denied", admin.Headers.Location?.PathAndQuery, StringComparison.Ordinal);
        Assert.Equal("/signin?error=link", again.Headers.Location?.OriginalString);
        var erin = Assert.Single(await app.Get<UserDirectory>().UsersAsync(CancellationToken.None), u => u.Name == "Erin");
        Assert.Equal((BenchWebRoles.Viewer, SignInSources.Local), (erin.Role, erin.Source));
    }

    [Fact]
    public async Task Invitation_AfterItsWeek_NoLongerSignsIn()
    {
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        await using var app = new BenchWebFactory(services: s => s.AddSingleton<TimeProvider>(time));
        var token = await app.Get<UserDirectory>().InviteAsync("Frank", BenchWebRoles.Runner, TestActors.Admin, CancellationToken.None);

        time.Advance(UserDirectory.InvitationLifetime + TimeSpan.FromMinutes(1));
        using var browser = Browser(app);

        Assert.Equal("/signin?error=link", (await browser.GetAsync($"/signin/local?token={token}")).Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task TokenForm_WithItsAntiforgeryToken_SignsIn_AndWithoutIt_IsRefused()
    {
        await using var app = new BenchWebFactory();
        var token = await app.Get<UserDirectory>().InviteAsync("Gina", BenchWebRoles.Runner, TestActors.Admin, CancellationToken.None);
        using var browser = Browser(app);
        var page = await browser.GetStringAsync("/signin");
        var antiforgery = AntiforgeryField().Match(page).Groups[1].Value;

        var forged = await browser.PostAsync("/signin/local", new FormUrlEncodedContent([new("token", token)]));
        var signIn = await browser.PostAsync("/signin/local", new FormUrlEncodedContent([new("token", token), new("__RequestVerificationToken", antiforgery)]));

        Assert.Equal(HttpStatusCode.BadRequest, forged.StatusCode);
        Assert.Equal("/", signIn.Headers.Location?.OriginalString);
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/profiles/new")).StatusCode);
    }

    [Fact]
    public async Task DisabledUser_LosesTheSessionWithinAMinute_AndTheTokens()
    {
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        await using var app = new BenchWebFactory(services: s => s.AddSingleton<TimeProvider>(time));
        var users = app.Get<UserDirectory>();
        using var browser = Browser(app);
        await browser.GetAsync($"/signin/local?token={await users.InviteAsync("Hal", BenchWebRoles.Runner, TestActors.Admin, CancellationToken.None)}");
        var hal = Assert.Single(await users.UsersAsync(CancellationToken.None), u => u.Name == "Hal");
        var (_, apiToken) = await users.CreateTokenAsync(hal.Id, BenchWebRoles.Runner, "hal's pipeline", BenchWebRoles.Runner, null, TestActors.Admin, CancellationToken.None);
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/runs")).StatusCode);

        Assert.True(await users.SetDisabledAsync(hal.Id, disabled: true, TestActors.Admin, CancellationToken.None));
        time.Advance(SessionStore.CheckInterval + TimeSpan.FromSeconds(1));

        Assert.StartsWith("/signin", (await browser.GetAsync("/runs")).Headers.Location?.PathAndQuery, StringComparison.Ordinal);
        using var pipeline = app.CreateClient().WithToken(apiToken);
        Assert.Equal(HttpStatusCode.Unauthorized, (await pipeline.GetAsync("/api/runs")).StatusCode);
        Assert.False(await users.SetDisabledAsync(UserDirectory.LocalAdminId, disabled: true, TestActors.Admin, CancellationToken.None));
    }

    [Fact]
    public async Task SignOut_EndsTheSession()
    {
        await using var app = new BenchWebFactory();
        using var browser = Browser(app);
        await browser.GetAsync(app.Get<LocalAdminLink>().Link!.PathAndQuery);
        var page = await browser.GetStringAsync("/runs");
        var antiforgery = AntiforgeryField().Match(page).Groups[1].Value;

        var signOut = await browser.PostAsync("/signout", new FormUrlEncodedContent([new("__RequestVerificationToken", antiforgery)]));

        Assert.Equal("/signin?signedOut=1", signOut.Headers.Location?.OriginalString);
        Assert.StartsWith("/signin", (await browser.GetAsync("/runs")).Headers.Location?.PathAndQuery, StringComparison.Ordinal);
    }

    /// <summary>Signing out ends the session on the server: a copy of the cookie saved before is refused afterwards by
    /// the API (401), the pages (to the sign-in page) and the hub (401), on a real server.</summary>
    [Fact]
    public async Task SignOut_ACookieSavedBefore_IsRefusedAfterwards()
    {
        await using var host = await DashboardHost.StartAsync();
        var cookies = new CookieContainer();
        using var browser = new HttpClient(new HttpClientHandler { CookieContainer = cookies, AllowAutoRedirect = false }) { BaseAddress = host.BaseAddress };
        await browser.GetAsync(host.Get<LocalAdminLink>().Link!.PathAndQuery);
        var saved = cookies.GetCookies(host.BaseAddress).Single(c => c.Name == BenchWeb.Hosting.SecurityExtensions.SessionCookie);
        using var copy = new HttpClient(new HttpClientHandler { UseCookies = false, AllowAutoRedirect = false }) { BaseAddress = host.BaseAddress };
        copy.DefaultRequestHeaders.Add("Cookie", $"{saved.Name}={saved.Value}");
        Assert.Equal(HttpStatusCode.OK, (await copy.GetAsync("api/runs")).StatusCode);
        var antiforgery = AntiforgeryField().Match(await browser.GetStringAsync("runs")).Groups[1].Value;

        var signOut = await browser.PostAsync("signout", new FormUrlEncodedContent([new("__RequestVerificationToken", antiforgery)]));

        Assert.Equal("/signin?signedOut=1", signOut.Headers.Location?.OriginalString);
        Assert.Equal(HttpStatusCode.Unauthorized, (await copy.GetAsync("api/runs")).StatusCode);
        Assert.StartsWith("/signin", (await copy.GetAsync("runs")).Headers.Location?.PathAndQuery, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Unauthorized, (await copy.PostAsync("hubs/runs/negotiate?negotiateVersion=1", null)).StatusCode);
    }

    /// <summary>However active, a session ends at its absolute lifetime (sliding expiration renews the cookie, not the session).</summary>
    [Fact]
    public async Task Session_InUseAllTheTime_EndsAtItsAbsoluteLifetime()
    {
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        await using var app = new BenchWebFactory(services: s => s.AddSingleton<TimeProvider>(time));
        using var browser = Browser(app);
        await browser.GetAsync(app.Get<LocalAdminLink>().Link!.PathAndQuery);
        var lifetime = app.Get<SessionStore>().MaxLifetime;
        Assert.Equal(TimeSpan.FromHours(24), lifetime);

        // Used every 7 hours: each use renews the 12-hour sliding cookie.
        var step = TimeSpan.FromHours(7);
        for (var used = step; used < lifetime; used += step)
        {
            time.Advance(step);
            Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/runs")).StatusCode);
        }

        time.Advance(step);

        Assert.StartsWith("/signin", (await browser.GetAsync("/runs")).Headers.Location?.PathAndQuery, StringComparison.Ordinal);
    }

    [Fact]
    public async Task DisabledUser_LosesTheSessionAtOnce_OnThisInstance()
    {
        await using var app = new BenchWebFactory();
        var users = app.Get<UserDirectory>();
        using var browser = Browser(app);
        await browser.GetAsync($"/signin/local?token={await users.InviteAsync("Ivy", BenchWebRoles.Runner, TestActors.Admin, CancellationToken.None)}");
        var ivy = Assert.Single(await users.UsersAsync(CancellationToken.None), u => u.Name == "Ivy");
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/runs")).StatusCode);

        Assert.True(await users.SetDisabledAsync(ivy.Id, disabled: true, TestActors.Admin, CancellationToken.None));

        Assert.StartsWith("/signin", (await browser.GetAsync("/runs")).Headers.Location?.PathAndQuery, StringComparison.Ordinal);
    }

    /// <summary>A client that keeps cookies and shows redirects, as a browser's network log would.</summary>
    internal static HttpClient Browser(BenchWebFactory app) =>
        app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false, HandleCookies = true });

    [GeneratedRegex("name=\"__RequestVerificationToken\" value=\"([^\"]+)\"")]
    internal static partial Regex AntiforgeryField();
}
