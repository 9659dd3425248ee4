using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>Signing in through a real OpenID Connect provider (node-oidc-provider on loopback) in Chromium, with the
/// dashboard started as its own process in OpenIdConnect mode: the provider's role claim decides what the user may do.</summary>
[Collection(OpenIdConnectCollection.Name)]
[BrowserTest]
[Slow]
public sealed class OpenIdConnectSignInTests(OpenIdConnectFixture fixture) : IAsyncLifetime
{
    private IBrowserContext? _context;
    private IPage? _page;

    private IPage Page => _page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync()
    {
        SetDefaultExpectTimeout(30_000);
        _context = await fixture.Browser.NewContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = 1366, Height = 900 } });
        _context.SetDefaultTimeout(30_000);
        _page = await _context.NewPageAsync();
    }

    public async Task DisposeAsync()
    {
        if (_context is not null)
        {
            await _context.CloseAsync();
        }
    }

    [Fact]
    public async Task SignIn_AsAnAdminOfTheProvider_GivesTheAdminRole()
    {
        await SignInAsync("alice-admin");

        await Expect(Page.Locator("#account-link")).ToHaveTextAsync("alice-admin · Admin");
        await Expect(Page.Locator("#quick-start")).ToBeVisibleAsync();
        await Page.GotoAsync(new Uri(fixture.App.BaseAddress, "admin/users").ToString());
        await Expect(Page.Locator("#users")).ToContainTextAsync("alice-admin");
        await Expect(Page.Locator("#users")).ToContainTextAsync("OpenIdConnect");
    }

    [Fact]
    public async Task SignIn_AsAViewer_CanReadButNotLaunch()
    {
        await SignInAsync("carol-viewer");

        await Expect(Page.Locator("#account-link")).ToHaveTextAsync("carol-viewer · Viewer");
        await Expect(Page.Locator("#quick-start")).ToHaveCountAsync(0);
        await Page.GotoAsync(new Uri(fixture.App.BaseAddress, "admin/users").ToString());
        await Expect(Page.Locator("#not-allowed")).ToBeVisibleAsync();
        await Page.GotoAsync(new Uri(fixture.App.BaseAddress, "profiles/new").ToString());
        await Expect(Page.Locator("#not-allowed")).ToBeVisibleAsync();
    }

    [Fact]
    public async Task SignIn_WithNoRoleAtTheProvider_IsRefusedWithTheReason()
    {
        await StartSignInAsync("dave");

        await Expect(Page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("/signin\\?error=norole"));
        await Expect(Page.Locator("#sign-in-error")).ToContainTextAsync("no BenchWeb role");
        await Page.GotoAsync(fixture.App.BaseAddress.ToString());
        await Expect(Page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("/signin"));
    }

    private async Task SignInAsync(string login)
    {
        await StartSignInAsync(login);
        await Expect(Page.Locator("main[data-interactive='true']")).ToBeVisibleAsync();
    }

    private async Task StartSignInAsync(string login)
    {
        // A page of the dashboard sends its anonymous visitor to sign in, and on to the provider.
        await Page.GotoAsync(fixture.App.BaseAddress.ToString());
        await Expect(Page).ToHaveURLAsync(new System.Text.RegularExpressions.Regex("/signin"));
        await Page.Locator("#sign-in-provider").ClickAsync();

        // The provider's development login form, then its consent page.
        await Page.Locator("input[name=login]").FillAsync(login);
        await Page.Locator("input[name=password]").FillAsync("any password");
        await Page.Locator("button[type=submit]").ClickAsync();

        // The login form is gone once the provider has answered it; only then is a submit button the consent page's (on a busy
        // machine the login form's own button was still there, clicked twice, and the sign-in never came back).
        await Expect(Page.Locator("input[name=login]")).ToHaveCountAsync(0);
        if (Page.Url.StartsWith(fixture.Provider.Authority, StringComparison.Ordinal))
        {
            await Page.Locator("button[type=submit]").ClickAsync();
        }

        await Page.WaitForURLAsync(url => url.StartsWith(fixture.App.BaseAddress.ToString(), StringComparison.Ordinal));
    }
}
