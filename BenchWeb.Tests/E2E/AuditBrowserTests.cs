using System.Collections.Concurrent;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using BenchWeb.Guard.Audit;
using BenchWeb.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>The audit log of what a user does in the browser: the page's circuit gives the actor and the address it
/// connected from. Leaves the shared dashboard's kill switch alone (the other browser tests launch runs).</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed partial class AuditBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private readonly ConcurrentQueue<string> _browserErrors = new();
    private IBrowserContext? _context;
    private IPage? _page;

    private IPage Page => _page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync()
    {
        SetDefaultExpectTimeout(30_000);
        _context = await fixture.NewSignedInContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = 1280, Height = 900 } });
        _context.SetDefaultTimeout(30_000);
        _page = await _context.NewPageAsync();
        _page.PageError += (_, error) => _browserErrors.Enqueue($"page error: {error}");
    }

    public async Task DisposeAsync()
    {
        if (_context is not null)
        {
            await _context.CloseAsync();
        }
    }

    [Fact]
    public async Task ProfileSavedInTheBrowser_IsRecordedWithTheSignedInAdminAndTheCircuitsAddress_AndListedOnTheAuditPage()
    {
        var name = $"E2E audited {Guid.NewGuid().ToString("N")[..8]}";
        await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, "profiles/new"));
        await DashboardPages.FillAsync(Page, "Name", name);
        await DashboardPages.SelectAsync(Page, "Target.Kind", "CosmosSql");
        await DashboardPages.FillAsync(Page, "Target.Cosmos.Endpoint", "https://e2e-audit.documents.azure.com:443/");
        await Page.Locator("#save-profile").ClickAsync();
        await Page.WaitForURLAsync(ProfilePageUrl());

        using var http = await fixture.App.CreateSignedInClientAsync();
        var entries = (await GetAsync(http, $"api/audit?action={AuditActions.ProfileCreated}&pageSize=500"))["items"]!.AsArray();
        var entry = Assert.Single(entries, e => e!["subject"]!.GetValue<string>().EndsWith($"“{name}”", StringComparison.Ordinal))!;
        Assert.Equal("local:ADMIN", entry["userId"]!.GetValue<string>());
        Assert.Equal("Admin", entry["role"]!.GetValue<string>());
        Assert.Equal("Local", entry["via"]!.GetValue<string>());
        // The browser's circuit connected over loopback: the address captured when the circuit started.
        Assert.Equal("127.0.0.1", entry["remoteIp"]!.GetValue<string>());
        Assert.Equal("e2e-audit.documents.azure.com", entry["endpoint"]!.GetValue<string>());

        await DashboardPages.GotoAsync(Page, new Uri(fixture.App.BaseAddress, $"admin/audit?action={AuditActions.ProfileCreated}"));
        await Expect(Page.Locator($"#audit-entries tr[data-audit-id='{entry["id"]!.GetValue<long>()}']")).ToContainTextAsync(name);
        Assert.Empty(_browserErrors);
    }

    private static async Task<JsonNode> GetAsync(HttpClient http, string path)
    {
        using var response = await http.GetAsync(new Uri(path, UriKind.Relative));
        Assert.True(response.IsSuccessStatusCode, $"GET {path}: {(int)response.StatusCode}");
        return JsonNode.Parse(await response.Content.ReadAsStringAsync())!;
    }

    [GeneratedRegex(@"/profiles/\d+$")]
    private static partial Regex ProfilePageUrl();
}
