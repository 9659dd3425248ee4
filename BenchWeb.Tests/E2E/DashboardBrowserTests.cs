using System.Collections.Concurrent;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchWeb.Data;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>
/// The dashboard as a user meets it: started as its own process from the build output, driven by Chromium.
/// Waits are generous and nothing is timed tightly: the app, the browser and a run share two cores.
/// A screenshot of the finished live page is written to <c>TestResults/screenshots/run-live.png</c> under the
/// test output folder (e.g. <c>BenchWeb.Tests/bin/Release/net10.0/</c>); a failing test leaves one there too.
/// </summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed partial class DashboardBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromSeconds(120);

    private readonly ConcurrentQueue<string> _browserErrors = new();
    private IBrowserContext? _context;
    private IPage? _page;

    /// <summary>Where screenshots go: <c>TestResults/screenshots</c> in the test output folder.</summary>
    public static string ScreenshotDirectory => Path.Combine(AppContext.BaseDirectory, "TestResults", "screenshots");

    private IPage Page => _page ?? throw new InvalidOperationException("No page yet.");

    private Uri App(string relative) => new(fixture.App.BaseAddress, relative);

    public async Task InitializeAsync()
    {
        SetDefaultExpectTimeout(30_000);
        _context = await fixture.NewSignedInContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = 1280, Height = 900 } });
        _context.SetDefaultTimeout(30_000);
        _page = await _context.NewPageAsync();
        _page.PageError += (_, error) => _browserErrors.Enqueue($"page error: {error}");
        _page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                _browserErrors.Enqueue($"console error: {message.Text}");
            }
        };
    }

    public async Task DisposeAsync()
    {
        if (_context is not null)
        {
            await _context.CloseAsync();
        }
    }

    [Fact]
    public Task SaveAndRun_DrawsTheLiveChartAndShowsTotals_WhenAProfileIsCreatedInTheBrowser() => WithDiagnosticsAsync("run-live", async () =>
    {
        // Long enough that a page a busy machine makes interactive late still sees the chart grow while the run goes on.
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(Page, fixture.App.BaseAddress, Unique("E2E live run"), new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "8",
            ["Stop.DurationSeconds"] = "15",
        });
        Assert.True(runId > 0);
        await Expect(Page.Locator(".run-target")).ToContainTextAsync("Simulated Cosmos DB");

        // A point per second while the run goes on: seen growing before the run ends.
        var first = await WaitForChartWhileRunningAsync(1);
        Assert.True(first.Points >= 1, $"No point was drawn before the run ended ({first.Status}).");
        var later = await WaitForChartWhileRunningAsync(Math.Max(3, first.Points + 1));
        Assert.True(later.Points >= 3 && later.Points > first.Points, $"The chart stopped at {later.Points} point(s) (was {first.Points}) while the run was {later.Status}.");

        await DashboardPages.WaitForStatusAsync(Page, "Completed", RunTimeout);
        var totalOk = long.Parse(await Page.Locator("[data-tile='total-ok']").InnerTextAsync(), NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
        Assert.True(totalOk > 0, "The run completed with no insert on the tiles.");
        Assert.True(await DashboardPages.ChartPointsAsync(Page) >= later.Points);
        // The live view started once and stayed up: no "live updates are not available" or connection message.
        await Expect(Page.Locator("main p.error")).ToHaveCountAsync(0);
        // The run was queued when the page opened; its provisioned RU/s line appeared once it started.
        Assert.True(await Page.EvaluateAsync<bool>("() => window.benchWeb.view.charts.ru.data.datasets[1].source.length === 2"), "No provisioned RU/s line on the RU/s chart.");

        Directory.CreateDirectory(ScreenshotDirectory);
        var screenshot = Path.Combine(ScreenshotDirectory, "run-live.png");
        await Page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
        Assert.True(new FileInfo(screenshot).Length > 10_000, "The screenshot is (nearly) empty.");
        AssertNoBrowserErrors();

        // The run went through Hangfire: the navigation's Jobs link opens its dashboard, which lists the run's job.
        await Page.GetByRole(AriaRole.Link, new() { Name = "Jobs", Exact = true }).ClickAsync();
        await Expect(Page).ToHaveURLAsync(new Regex("/hangfire/?$"));
        // The dashboard loaded (its title is Hangfire's page name and ours) before the next address: a navigation still
        // under way when the next begins aborts it.
        await Expect(Page).ToHaveTitleAsync(new Regex("BenchWeb · jobs"));
        await Page.WaitForLoadStateAsync(LoadState.Load);
        await Page.GotoAsync(App("hangfire/jobs/succeeded").ToString());
        await Expect(Page.GetByRole(AriaRole.Table)).ToContainTextAsync($"Benchmark run {runId}");
        // Its times on a 24-hour clock, year first, as on every other page (moment's English default is 12-hour US).
        var jobTimes = await Page.EvaluateAsync<string[]>("() => [...document.querySelectorAll('[data-moment]')].map(e => e.getAttribute('data-original-title') || e.getAttribute('title') || '')");
        Assert.NotEmpty(jobTimes);
        Assert.All(jobTimes, time => Assert.Matches(@"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", time));
        await Page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(ScreenshotDirectory, "hangfire.png"), FullPage = true });
    });

    [Fact]
    public Task Save_IsRefusedWithTheEnginesMessageBesideTheField_WhenConcurrencyIsZero() => WithDiagnosticsAsync("invalid-profile", async () =>
    {
        var name = Unique("E2E invalid");
        await DashboardPages.GotoAsync(Page, App("profiles/new"));
        await DashboardPages.FillAsync(Page, "Name", name);
        await DashboardPages.FillAsync(Page, "Load.Concurrency", "0");

        var message = Page.Locator(".validation-message[data-field='Load.Concurrency']");
        await Expect(message).ToHaveTextAsync("Must be at least 1.");
        await Expect(Page.Locator("#error-count")).ToBeVisibleAsync();
        await Page.Locator("#save-profile").ClickAsync();
        await Page.Locator("#save-and-run").ClickAsync();

        // The circuit handles events in order: once this later edit shows, both clicks have been handled.
        await DashboardPages.FillAsync(Page, "Description", "after the refused clicks");
        await DashboardPages.FillAsync(Page, "Load.Concurrency", "8");
        await Expect(message).ToHaveCountAsync(0);
        Assert.EndsWith("/profiles/new", Page.Url, StringComparison.Ordinal);
        await Expect(Page.Locator("#profile-message")).ToHaveCountAsync(0);

        await DashboardPages.GotoAsync(Page, App("profiles"));
        await Expect(Page.Locator($"[data-profile='{name}']")).ToHaveCountAsync(0);
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task ConnectionString_IsNeverSentBackToTheBrowser_AfterSaveAndReload() => WithDiagnosticsAsync("secret", async () =>
    {
        var accountKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(64));
        var connectionString = $"DefaultEndpointsProtocol=https;AccountName=e2esecret;AccountKey={accountKey};EndpointSuffix=core.windows.net";
        await DashboardPages.GotoAsync(Page, App("profiles/new"));
        await DashboardPages.FillAsync(Page, "Name", Unique("E2E secret"));
        await DashboardPages.SelectAsync(Page, "Target.Kind", "TableStorage");
        await DashboardPages.FillAsync(Page, "NewTablesConnectionString", connectionString);
        await Page.Locator("#save-profile").ClickAsync();
        await Page.WaitForURLAsync(ProfilePageUrl());
        await Expect(Page.Locator("[data-secret-stored='true']")).ToBeVisibleAsync();

        // Everything the server sends after the reload: the prerendered page and the circuit's messages.
        var frames = new ConcurrentQueue<string>();
        Page.WebSocket += (_, socket) => socket.FrameReceived += (_, frame) =>
            frames.Enqueue(frame.Text ?? Encoding.UTF8.GetString(frame.Binary ?? []));
        var response = await Page.ReloadAsync();
        Assert.NotNull(response);
        var prerendered = await response.TextAsync();
        await DashboardPages.WaitForInteractiveAsync(Page);
        await Expect(Page.Locator("[data-secret-stored='true']")).ToBeVisibleAsync();
        var html = await Page.ContentAsync();

        Assert.DoesNotContain(accountKey, prerendered, StringComparison.Ordinal);
        Assert.DoesNotContain(accountKey, html, StringComparison.Ordinal);
        Assert.Empty(await Page.Locator(DashboardPages.Field("NewTablesConnectionString")).InputValueAsync());
        Assert.NotEmpty(frames);
        Assert.DoesNotContain(frames, frame => frame.Contains(accountKey, StringComparison.Ordinal));
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task Reload_MidRun_ShowsTheWholeRunSoFarThenContinuesLive() => WithDiagnosticsAsync("reload", async () =>
    {
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(Page, fixture.App.BaseAddress, Unique("E2E reload"), new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "4",
            ["Stop.DurationSeconds"] = "20",
        });
        await Expect(DashboardPages.Status(Page)).ToBeVisibleAsync();
        var before = await WaitForChartWhileRunningAsync(4);
        Assert.True(before.Points >= 4, $"The run ended ({before.Status}) before the page was reloaded.");

        await Page.ReloadAsync();
        await DashboardPages.WaitForInteractiveAsync(Page);
        await Expect(DashboardPages.Status(Page)).ToBeVisibleAsync();

        // Right after the reload the chart holds every second so far, then keeps growing live.
        var reloaded = await WaitForChartWhileRunningAsync(before.Points);
        Assert.True(reloaded.Points >= before.Points, $"After the reload the chart had {reloaded.Points} point(s), before it {before.Points}.");
        await DashboardPages.WaitForStatusAsync(Page, "Completed", RunTimeout);
        await Page.WaitForFunctionAsync("n => Number(document.querySelector('#run-charts')?.dataset.points ?? 0) >= n", await SavedSecondsAsync(runId));
        Assert.Equal(await SavedSecondsAsync(runId), await DashboardPages.ChartPointsAsync(Page));
        await Expect(Page.Locator("main p.error")).ToHaveCountAsync(0);
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task LiveTiles_ChangeAsSecondsArrive_WithNoCallFromTheBrowser() => WithDiagnosticsAsync("live-tiles", async () =>
    {
        // Every message of the page's Blazor circuit, both ways, as it passes.
        var circuit = new ConcurrentQueue<string>();
        Page.WebSocket += (_, socket) =>
        {
            if (socket.Url.Contains("/_blazor", StringComparison.Ordinal))
            {
                socket.FrameSent += (_, frame) => circuit.Enqueue("sent " + (frame.Text ?? Encoding.UTF8.GetString(frame.Binary ?? [])));
                socket.FrameReceived += (_, frame) => circuit.Enqueue("received " + (frame.Text ?? Encoding.UTF8.GetString(frame.Binary ?? [])));
            }
        };
        var runId = await DashboardPages.SaveAndRunNewProfileAsync(Page, fixture.App.BaseAddress, Unique("E2E live tiles"), new Dictionary<string, string>
        {
            ["Load.Concurrency"] = "4",
            ["Stop.DurationSeconds"] = "20",
        });

        // Past the run's start (a status change, which the page reads again), the tiles of three seconds in a row.
        await Page.WaitForFunctionAsync("() => Number(document.querySelector('#run-tiles')?.dataset.index ?? -1) >= 1",
            null, new PageWaitForFunctionOptions { PollingInterval = 100, Timeout = (float)RunTimeout.TotalMilliseconds });
        var quietFrom = circuit.Count;
        var shown = await Page.EvaluateAsync<string[]>(
            """
            async n => {
              const tiles = () => document.querySelector('#run-tiles');
              const text = name => document.querySelector(`[data-tile="${name}"]`).textContent;
              const shown = [];
              for (let last = Number(tiles().dataset.index); shown.length < n; await new Promise(r => setTimeout(r, 50))) {
                const index = Number(tiles().dataset.index);
                if (index > last) {
                  last = index;
                  shown.push(`${index}|${text('elapsed')}|${text('total-ok')}|${text('total-ok-detail')}`);
                }
                if (document.querySelector('.run-header [data-status]')?.dataset.status !== 'Running') break;
              }
              return shown;
            }
            """, 3);
        var during = circuit.Skip(quietFrom).ToList();

        Assert.Equal(3, shown.Length);
        var tiles = shown.Select(t => t.Split('|')).ToList();
        Assert.Equal(tiles.Count, tiles.Select(t => t[1]).Distinct().Count());
        var totals = tiles.Select(t => long.Parse(t[2], NumberStyles.AllowThousands, CultureInfo.InvariantCulture)).ToList();
        Assert.True(totals.Zip(totals.Skip(1)).All(p => p.Second > p.First), $"Inserted did not grow second by second: {string.Join(", ", totals)}");
        Assert.All(tiles, t => Assert.EndsWith("errors", t[3], StringComparison.Ordinal));
        // The server rendered those seconds from the run's feed: the browser called nothing for them.
        Assert.DoesNotContain(during, m => m.Contains("BeginInvokeDotNetFromJS", StringComparison.Ordinal));
        Assert.Contains(during, m => m.StartsWith("received", StringComparison.Ordinal) && m.Contains("RenderBatch", StringComparison.Ordinal));

        // Once the run has ended the page draws its tiles anew from the saved seconds: the same total.
        await DashboardPages.WaitForStatusAsync(Page, "Completed", RunTimeout);
        await using var db = OpenAppDatabase();
        var saved = await db.RunSeconds.Where(s => s.RunId == runId).SumAsync(s => s.Ok);
        await Expect(Page.Locator("[data-tile='total-ok']")).ToHaveTextAsync(saved.ToString("N0", CultureInfo.InvariantCulture));
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task HourLongRun_OpensWithEverySecondDrawn() => WithDiagnosticsAsync("hour-long-run", async () =>
    {
        const int Seconds = 3_600;
        var runId = await SeedFinishedRunAsync(Seconds);

        await DashboardPages.GotoAsync(Page, App($"runs/{runId}"));

        await Page.WaitForFunctionAsync("n => Number(document.querySelector('#run-charts')?.dataset.points ?? 0) === n", Seconds);
        await Expect(Page.Locator("[data-tile='total-ok']")).ToHaveTextAsync((Seconds * 1_000L).ToString("N0", CultureInfo.InvariantCulture));
        var firstDraw = (await Page.EvaluateAsync<double[]>("() => window.benchWeb.drawMs")).Max();

        // One more second per frame, as a live run adds them: each redraw goes through every chart's 3,600 points.
        var redraws = await Page.EvaluateAsync<double[]>(
            """
            async n => {
              const view = window.benchWeb.view;
              const before = window.benchWeb.drawMs.length;
              for (let i = 0; i < 10; i++) {
                const index = n + i;
                view.add([{ index, elapsedSeconds: index + 1, durationSeconds: 1, ok: 1000, throttled: 0, requestUnits: 6000, latencyP50Ms: 5, latencyP99Ms: 40, clientCpuPercent: 30, closedAt: new Date().toISOString() }], false);
                await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
              }
              return window.benchWeb.drawMs.slice(before);
            }
            """, Seconds);
        Assert.Equal(10, redraws.Length);
        Assert.Equal(Seconds + 10, await DashboardPages.ChartPointsAsync(Page));
        Console.WriteLine($"Hour-long run: first draw of {Seconds:N0} points a series {firstDraw:N1} ms; a redraw per new second: median {redraws.Order().ElementAt(5):N1} ms, slowest {redraws.Max():N1} ms.");
        AssertNoBrowserErrors();
    });

    private async Task<int> SavedSecondsAsync(long runId)
    {
        await using var db = OpenAppDatabase();
        return await db.RunSeconds.CountAsync(s => s.RunId == runId);
    }

    // A finished run written straight into the dashboard's database, as a long run would have left it.
    private async Task<long> SeedFinishedRunAsync(int seconds)
    {
        var start = DateTimeOffset.UtcNow.AddSeconds(-seconds - 5);
        await using var db = OpenAppDatabase();
        var run = new RunEntity
        {
            ProfileName = Unique("E2E hour-long run"),
            PlanJson = new RunPlan { Name = "hour", Stop = new StopOptions { DurationSeconds = seconds } }.ToJson(),
            Status = RunStatus.Completed,
            QueuedAt = start,
            StartedAt = start,
            EndedAt = start.AddSeconds(seconds),
            TargetDescription = "Simulated Cosmos DB (model) · 10,000 RU/s · 1 partition",
            TargetIsModel = true,
            ProvisionedRequestUnits = 10_000,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        for (var i = 0; i < seconds; i++)
        {
            db.RunSeconds.Add(new RunSecondEntity
            {
                RunId = run.Id, Index = i, ElapsedSeconds = i + 1, DurationSeconds = 1, Ok = 1_000, OkRequests = 1_000, Throttled = i % 7,
                RequestUnits = 6_000, LatencyP50Ms = 5 + (i % 3), LatencyP99Ms = 40 + (i % 11), ClientCpuPercent = 30 + (i % 20), ClosedAt = start.AddSeconds(i + 1),
            });
        }

        await db.SaveChangesAsync();
        return run.Id;
    }

    private BenchDbContext OpenAppDatabase() =>
        new(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={fixture.App.DatabasePath}").Options);

    [Theory]
    [InlineData("_framework/blazor.web.js")]
    [InlineData("Components/Pages/Runs/RunLive.razor.js")]
    [InlineData("js/palette.js")]
    [InlineData("lib/chart.umd.min.js")]
    [InlineData("lib/signalr.min.js")]
    [InlineData("app.css")]
    public async Task StaticFile_IsServedWithItsContent_WhenTheAppStartsFromItsBuildOutput(string path)
    {
        // Outside Development, a build output used to answer these with empty 200 responses: a page that never worked.
        using var http = new HttpClient { BaseAddress = fixture.App.BaseAddress };
        var body = await http.GetByteArrayAsync(new Uri(path, UriKind.Relative));
        Assert.True(body.Length > 100, $"{path}: {body.Length} bytes");
    }

    [Fact]
    public async Task BlazorScript_IsTheFrameworksOwnForThisRuntime()
    {
        using var http = new HttpClient { BaseAddress = fixture.App.BaseAddress };
        var script = await http.GetStringAsync(new Uri("_framework/blazor.web.js", UriKind.Relative));

        // The script bundles the SignalR client of its own ASP.NET Core release and names it in its user agent.
        var bundled = System.Text.RegularExpressions.Regex.Match(script, "\"X-SignalR-User-Agent\",\\w+\\(\"(\\d+)\\.\\d+\\.\\d+\"");
        Assert.True(bundled.Success, "no SignalR user agent in blazor.web.js");
        Assert.Equal(Environment.Version.Major.ToString(System.Globalization.CultureInfo.InvariantCulture), bundled.Groups[1].Value);
    }

    private async Task<(int Points, string Status)> WaitForChartWhileRunningAsync(int points)
    {
        // Returns as soon as the chart has the points, or the run is no longer active (then the caller fails).
        var handle = await Page.WaitForFunctionAsync(
            """
            min => {
              const points = Number(document.querySelector('#run-charts')?.dataset.points ?? 0);
              const status = document.querySelector('.run-header [data-status]')?.dataset.status ?? '';
              const active = status === 'Queued' || status === 'Running';
              return points >= min || !active ? `${active ? points : -1}|${status}` : null;
            }
            """,
            points,
            new PageWaitForFunctionOptions { PollingInterval = 100, Timeout = (float)RunTimeout.TotalMilliseconds });
        var state = (await handle.JsonValueAsync<string>()).Split('|');
        return (int.Parse(state[0], CultureInfo.InvariantCulture), state[1]);
    }

    private void AssertNoBrowserErrors() => Assert.True(_browserErrors.IsEmpty, string.Join('\n', _browserErrors));

    private Task WithDiagnosticsAsync(string name, Func<Task> steps) =>
        BrowserDiagnostics.RunAsync(_page, name, () => _browserErrors, () => fixture.App.Output, steps);

    private static string Unique(string name) => $"{name} {Guid.NewGuid().ToString("N")[..8]}";

    [GeneratedRegex(@"/profiles/\d+$")]
    private static partial Regex ProfilePageUrl();
}
