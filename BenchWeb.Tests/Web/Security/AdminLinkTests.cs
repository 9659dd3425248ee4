using System.Net;
using System.Text.RegularExpressions;
using BenchWeb.Guard.Security;
using BenchWeb.Hosting;
using BenchWeb.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchWeb.Tests.Web.Security;

/// <summary>The administrator's one-time link: printed on the console at start only while no administrator exists,
/// never into a log, not at all on App Service (whose console is its log), and printed afresh by the
/// <c>admin-link</c> command, whose link works in the running server.</summary>
[IntegrationTest]
public sealed partial class AdminLinkTests
{
    [Fact]
    public async Task Start_WithNoAdministrator_PrintsAWorkingLinkOnTheConsole_ButNotIntoTheLog()
    {
        var logs = new CapturedLogs();
        using var console = new StringWriter();
        await using var app = new BenchWebFactory(services: s => s
            .AddSingleton<ILoggerProvider>(logs)
            .AddSingleton(sp => LocalAdminLink.Create(sp, console)));
        _ = app.Services;

        var token = TokenIn(console.ToString());

        Assert.DoesNotContain(logs.Lines, l => l.Contains(token, StringComparison.Ordinal));
        Assert.NotEmpty(logs.Lines);
        using var browser = SignInTests.Browser(app);
        Assert.Equal("/", (await browser.GetAsync($"/signin/local?token={token}")).Headers.Location?.OriginalString);
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/admin/users")).StatusCode);
    }

    [Fact]
    public async Task Start_WithAnAdministrator_PrintsNoLink_AndTheCommandPrintsOneThatWorksInTheRunningServer()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            await using (var first = await DashboardHost.StartAsync(dataDirectory))
            {
                using var signIn = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = first.BaseAddress };
                Assert.Equal("/", (await signIn.GetAsync(first.Get<LocalAdminLink>().Link!.PathAndQuery)).Headers.Location?.OriginalString);
            }

            using var console = new StringWriter();
            await using var restarted = await DashboardHost.StartAsync(dataDirectory, console: console);

            Assert.DoesNotContain("token=", console.ToString(), StringComparison.Ordinal);
            Assert.Contains("an administrator exists, so no sign-in link is printed. For one, run: dotnet BenchWeb.dll admin-link", console.ToString(), StringComparison.Ordinal);
            Assert.Null(restarted.Get<LocalAdminLink>().Link);

            using var output = new StringWriter();
            using var error = new StringWriter();
            var exit = await AdminLinkCommand.RunAsync(["--urls", restarted.BaseAddress.ToString()], output, error,
                builder => builder.Configuration["BenchWeb:DataDirectory"] = dataDirectory, CancellationToken.None);

            Assert.Equal((AdminLinkCommand.ExitPrinted, ""), (exit, error.ToString()));
            var link = new Uri(LinkIn(output.ToString()));
            Assert.Equal(restarted.BaseAddress.Authority, link.Authority);
            var cookies = new CookieContainer();
            using var browser = new HttpClient(new HttpClientHandler { CookieContainer = cookies, AllowAutoRedirect = false }) { BaseAddress = restarted.BaseAddress };
            Assert.Equal("/", (await browser.GetAsync(link.PathAndQuery)).Headers.Location?.OriginalString);
            Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("admin/users")).StatusCode);
            using var again = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = restarted.BaseAddress };
            Assert.Equal("/signin?error=link", (await again.GetAsync(link.PathAndQuery)).Headers.Location?.OriginalString);
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    [Fact]
    public async Task Command_ReplacesThePreviousLink()
    {
        await using var app = new BenchWebFactory();
        var links = app.Get<LocalAdminLink>();
        var printedAtStart = links.Link!;

        var fresh = await links.IssueAsync(new Uri("http://localhost/"), replacePrevious: true, CancellationToken.None);

        using var browser = SignInTests.Browser(app);
        Assert.Equal("/signin?error=link", (await browser.GetAsync(printedAtStart.PathAndQuery)).Headers.Location?.OriginalString);
        Assert.Equal("/", (await browser.GetAsync(fresh.PathAndQuery)).Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task Start_OnAppService_WithNoAdministrator_PrintsHowToGetALink_NotALink()
    {
        using var console = new StringWriter();
        await using var app = new BenchWebFactory(
            new Dictionary<string, string?> { [LocalAdminLink.AppServiceVariable] = "a1b2c3" },
            s => s.AddSingleton(sp => LocalAdminLink.Create(sp, console)));
        _ = app.Services;

        Assert.DoesNotContain("token=", console.ToString(), StringComparison.Ordinal);
        Assert.Contains("no administrator yet. Open an SSH session to the app and run: dotnet BenchWeb.dll admin-link", console.ToString(), StringComparison.Ordinal);
        Assert.Null(app.Get<LocalAdminLink>().Link);
    }

    [Fact]
    public async Task Command_WithOpenIdConnectSignIn_PrintsNoLink_AndSaysWhy()
    {
        var dataDirectory = DashboardHost.NewDataDirectory();
        try
        {
            using var output = new StringWriter();
            using var error = new StringWriter();

            var exit = await AdminLinkCommand.RunAsync([], output, error, builder =>
            {
                builder.Configuration["BenchWeb:DataDirectory"] = dataDirectory;
                builder.Configuration["BenchWeb:Security:SignIn"] = "OpenIdConnect";
                builder.Configuration["BenchWeb:Security:OpenIdConnect:Authority"] = "https://login.example.com/";
                builder.Configuration["BenchWeb:Security:OpenIdConnect:ClientId"] = "bench";
            }, CancellationToken.None);

            Assert.Equal(AdminLinkCommand.ExitLocalSignInOff, exit);
            Assert.Equal("", output.ToString());
            Assert.Contains("Local sign-in is off", error.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            DashboardHost.DeleteDataDirectory(dataDirectory);
        }
    }

    private static string LinkIn(string console) => Assert.Single(LinkPattern().Matches(console)).Value;

    private static string TokenIn(string console) => LinkIn(console)[(LinkIn(console).IndexOf("token=", StringComparison.Ordinal) + "token=".Length)..];

    [GeneratedRegex(@"https?://\S+/signin/local\?token=bwa_[A-Za-z0-9_-]+")]
    private static partial Regex LinkPattern();
}
