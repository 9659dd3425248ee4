using System.Net;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Execution;
using BenchWeb.Tests.Support;
using Microsoft.EntityFrameworkCore;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace BenchWeb.Tests.E2E;

/// <summary>The pages a team reads at a glance, on a laptop's screen (1,366 × 768): the results table, the run history,
/// a finished run and a comparison, with runs of every kind of target written into the dashboard's database. Each test
/// leaves a screenshot named <c>glance-*.png</c> beside the others.</summary>
[Collection(DashboardBrowserCollection.Name)]
[BrowserTest]
[Slow]
public sealed class GlanceBrowserTests(DashboardBrowserFixture fixture) : IAsyncLifetime
{
    private const int LaptopWidth = 1_366;
    private const int LaptopHeight = 768;

    // Whether an element lays its text out over more than one line: text on a second line starts a line-height below the
    // first; a badge beside it sits a few pixels off.
    private const string WrapsOverLines =
        """
        cell => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.top);
          const style = getComputedStyle(cell);
          const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
          return Math.max(...tops) - Math.min(...tops) > lineHeight * 0.8;
        }
        """;

    private WatchedPage? _watched;

    private IPage Page => _watched?.Page ?? throw new InvalidOperationException("No page yet.");

    public async Task InitializeAsync() => _watched = await WatchedPage.OpenAsync(fixture, LaptopWidth, LaptopHeight);

    public async Task DisposeAsync()
    {
        if (_watched is not null)
        {
            await _watched.DisposeAsync();
        }
    }

    [Fact]
    public Task ResultsTable_ShowsEveryFigureInsideTheViewport_ForARunOfEachTargetOnALaptopScreen() => WithDiagnosticsAsync("glance-results", async () =>
    {
        var runs = await SeedOneRunOfEachTargetAsync();

        await DashboardPages.GotoAsync(Page, App($"results?runs={string.Join(',', runs)}"));
        await Expect(Page.Locator("#results-table tbody tr[data-run]")).ToHaveCountAsync(runs.Count);

        // Every cell, figures included, is on the screen without scrolling sideways: its box ends inside the viewport.
        var outside = await Page.EvaluateAsync<string[]>(
            """
            width => [...document.querySelectorAll('#results-table th, #results-table td')]
                .map(cell => ({ cell, box: cell.getBoundingClientRect() }))
                .filter(c => c.box.right > width + 0.5 || c.box.left < 0)
                .map(c => `${c.cell.textContent.trim()} (${Math.round(c.box.left)}–${Math.round(c.box.right)} px)`)
            """, LaptopWidth);
        Assert.True(outside.Length == 0, $"Cells outside the {LaptopWidth} px viewport: {string.Join("; ", outside)}");
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The page scrolls sideways.");

        // A run's long name wraps onto a few lines beside its figures rather than being cut to its first letters on one.
        var cutToOneLine = await Page.EvaluateAsync<string[]>(
            """
            () => [...document.querySelectorAll('#results-table td.run')]
                .map(cell => ({ name: cell.querySelector('.few-lines'), link: cell.querySelector('a') }))
                .filter(c => c.name.textContent.length > 30 && c.name.getBoundingClientRect().height < 2 * c.link.getBoundingClientRect().height)
                .map(c => c.name.textContent)
            """);
        Assert.True(cutToOneLine.Length == 0, $"Names on one line: {string.Join("; ", cutToOneLine)}");

        // The Markdown keeps every column, the settings included, for pasting into a report.
        var markdown = await Page.Locator("#results-markdown").InputValueAsync();
        Assert.StartsWith("| Run | Target | Connection | Bulk | Concurrency | Load model | Batch | RU/s |", markdown, StringComparison.Ordinal);
        // Header, separator, one line per run, and the line saying what the latency columns cover.
        Assert.Equal(runs.Count + 3, markdown.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        await ScreenshotAsync("glance-results");
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task RunList_KeepsDatesTargetsAndFiguresOnOneLineWithoutSidewaysScrolling_OnALaptopScreen() => WithDiagnosticsAsync("glance-runs", async () =>
    {
        await SeedOneRunOfEachTargetAsync();

        await DashboardPages.GotoAsync(Page, App("runs"));
        await Expect(Page.Locator("table.run-history tbody tr").First).ToBeVisibleAsync();

        // The columns of dates, targets and figures: each of their cells lays its text out on a single line.
        var wrapped = await Page.EvaluateAsync<string[]>(
            """
            () => {
              const table = document.querySelector('table.run-history');
              const headers = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
              const columns = ['Target', 'Queued', 'Duration', 'Inserts/s', 'p99', 'Throttled']
                .map(name => headers.findIndex(h => h.startsWith(name)));
              return [...table.querySelectorAll('tbody tr')].flatMap(row => columns.map(c => row.children[c])).filter(wraps).map(cell => cell.textContent.trim());
            }
            """.Replace("wraps)", WrapsOverLines + ")", StringComparison.Ordinal));
        Assert.True(wrapped.Length == 0, $"Cells wrapped over two lines: {string.Join("; ", wrapped)}");
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The run list scrolls sideways.");
        var tableRight = await Page.EvaluateAsync<double>("() => document.querySelector('table.run-history').getBoundingClientRect().right");
        Assert.True(tableRight <= LaptopWidth, $"The table ends at {tableRight} px.");

        // Targets are named as people say them, never by the enum's identifiers.
        var targets = await Page.Locator("table.run-history tbody").InnerTextAsync();
        Assert.DoesNotContain("CosmosSql", targets, StringComparison.Ordinal);
        Assert.DoesNotContain("TableStorage", targets, StringComparison.Ordinal);
        Assert.DoesNotContain("CosmosTable", targets, StringComparison.Ordinal);
        await ScreenshotAsync("glance-runs");
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task RunPage_AnswersNotFoundWithAPageSayingSo_ForARunThatDoesNotExist() => WithDiagnosticsAsync("glance-missing-run", async () =>
    {
        using var http = await fixture.App.CreateSignedInClientAsync();
        using var response = await http.GetAsync(new Uri("runs/987654", UriKind.Relative));
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(body.Contains("Run #987654 does not exist", StringComparison.Ordinal), body);

        var answer = await Page.GotoAsync(App("runs/987654").ToString());
        Assert.Equal((int)HttpStatusCode.NotFound, answer!.Status);
        await Expect(Page.Locator("h1")).ToHaveTextAsync("Run #987654 does not exist");
        await Expect(Page.Locator("#run-not-found a[href='runs']")).ToBeVisibleAsync();

        // Any other address: a titled page that says so and leads back.
        answer = await Page.GotoAsync(App("no-such-page/here").ToString());
        Assert.Equal((int)HttpStatusCode.NotFound, answer!.Status);
        await Expect(Page).ToHaveTitleAsync("Page not found · BenchWeb");
        await Expect(Page.Locator("h1")).ToHaveTextAsync("Page not found");
        await Expect(Page.Locator("#page-not-found a[href='']")).ToHaveTextAsync("Home");
        AssertNoBrowserErrors(ignoreNotFound: true);
    });

    // How many rows the run page's tiles take.
    private Task<int> TileRowsAsync() =>
        Page.EvaluateAsync<int>("() => new Set([...document.querySelectorAll('#run-tiles .tile')].map(t => Math.round(t.getBoundingClientRect().top))).size");

    [Fact]
    public Task FinishedAndComparedRuns_AreLaidOutForALaptopScreen() => WithDiagnosticsAsync("glance-finished", async () =>
    {
        var runs = await SeedOneRunOfEachTargetAsync();
        var databases = SeededRuns.Databases(fixture.App.DatabasePath);
        var failed = await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.CosmosSql, Unique("E2E failed at open")), [], RunStatus.Failed,
            failureReason: "The target could not be opened: the account key was refused (401).");

        await DashboardPages.GotoAsync(Page, App($"runs/{runs[0]}"));
        await Expect(Page.Locator("#run-summary")).ToBeVisibleAsync();
        await Expect(Page.Locator("[data-tile='current-rate']")).ToHaveCountAsync(0);
        await Expect(Page.Locator("#run-settings")).ToContainTextAsync("Load");
        // One time axis for every chart of the run (30 seconds seeded), a colour per series, latency on a log axis.
        await Expect(Page.Locator("#run-charts")).ToHaveAttributeAsync("data-points", "30");
        Assert.Equal(["0-30"], (await DashboardPages.RunChartRangesAsync(Page)).Distinct());
        Assert.Empty(await DashboardPages.ChartProblemsAsync(Page));
        await ScreenshotAsync("glance-run-finished");
        await DocsScreenshots.TakeAsync(Page, "run");
        Assert.Equal(1, await TileRowsAsync());

        // An open loop while it runs has nine tiles (its current rate and sent / offered beside the rest): one row on a laptop,
        // at 1,280 px as well.
        var running = await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.NoOp, Unique("E2E open loop running")), SeededRuns.Seconds(12, 12_000, 0),
            RunStatus.Running, withSummary: false);
        await DashboardPages.GotoAsync(Page, App($"runs/{running}"));
        await Expect(Page.Locator("#run-tiles .tile")).ToHaveCountAsync(9);
        Assert.Equal(1, await TileRowsAsync());
        await Page.SetViewportSizeAsync(1_280, LaptopHeight);
        Assert.Equal(1, await TileRowsAsync());
        await ScreenshotAsync("glance-run-open-loop-1280");
        await Page.SetViewportSizeAsync(LaptopWidth, LaptopHeight);

        // A run a crash left open, closed at the next start-up with the summary of the seconds it kept.
        var interrupted = await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.Simulated, Unique("E2E left running")), SeededRuns.Seconds(20, 2_345, 6.29),
            RunStatus.Interrupted, withSummary: false, failureReason: "BenchWeb stopped while this run was running; the seconds saved until then are kept.");
        await using (var db = await databases.CreateDbContextAsync())
        {
            Assert.True(await PartialSummary.FillAsync(db, await db.Runs.SingleAsync(r => r.Id == interrupted), BenchEngine.Metrics.ClientLimits.Default, CancellationToken.None));
            await db.SaveChangesAsync();
        }

        await DashboardPages.GotoAsync(Page, App($"runs/{interrupted}"));
        await Expect(Page.Locator("#run-summary .badge.partial")).ToBeVisibleAsync();
        await Expect(Page.Locator("#run-summary")).ToContainTextAsync("not kept");
        // Its charts hold every second it kept, as a finished run's do.
        await Expect(Page.Locator("#run-charts")).ToHaveAttributeAsync("data-points", "20");
        await ScreenshotAsync("glance-run-partial");

        await DashboardPages.GotoAsync(Page, App($"runs/{failed}"));
        await Expect(Page.Locator("#failure-reason")).ToContainTextAsync("account key was refused");
        await Expect(Page.Locator("#run-summary")).ToHaveCountAsync(0);
        await ScreenshotAsync("glance-run-failed");

        // Runs of different services side by side: Cosmos DB, Blob Storage and Azure Cache for Redis.
        await DashboardPages.GotoAsync(Page, App($"compare?runs={runs[1]},{runs[5]},{runs[7]}"));
        await Expect(Page.Locator("#config-diff")).ToBeVisibleAsync();
        await Expect(Page.Locator("#config-diff")).ToContainTextAsync("Blob Storage");
        await Expect(Page.Locator("#config-diff")).ToContainTextAsync("Azure Cache for Redis");
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The comparison scrolls sideways.");
        // p50 as well as p99 overlaid, each run its own colour.
        await Expect(Page.Locator("#compare-charts")).ToHaveAttributeAsync("data-series", "3");
        await Expect(Page.Locator("canvas[data-chart='latency-p50']")).ToBeVisibleAsync();
        Assert.Empty(await DashboardPages.ChartProblemsAsync(Page));
        await ScreenshotAsync("glance-compare");
        await DocsScreenshots.TakeAsync(Page, "compare");

        await DashboardPages.GotoAsync(Page, App("profiles"));
        await Expect(Page.Locator("tr[data-preset='G1'] .run-length")).ToContainTextAsync("about 27 min 41 s");
        await ScreenshotAsync("glance-profiles");
        await DocsScreenshots.TakeAsync(Page, "presets", "#presets");
        // The presets' filter works in the browser, with no script of its own: a target leaves its presets and says how many.
        await Page.Locator("#preset-target").SelectOptionAsync("BlobStorage");
        await Expect(Page.Locator("tr[data-preset]")).ToHaveCountAsync(2);
        await Expect(Page.Locator("#preset-count")).ToContainTextAsync("2 of ");
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The presets scroll sideways.");

        // The one input that breaks a rule is outlined, and the editor says how long the run will take.
        await DashboardPages.GotoAsync(Page, App("profiles/new"));
        await DashboardPages.FillAsync(Page, "Load.Concurrency", "0");
        await Expect(Page.Locator("[id='Load.Concurrency']")).ToHaveAttributeAsync("aria-invalid", "true");
        await Expect(Page.Locator("[aria-invalid='true']")).ToHaveCountAsync(1);
        await Expect(Page.Locator("#run-length")).ToContainTextAsync("Takes");
        await ScreenshotAsync("glance-profile-edit");
        AssertNoBrowserErrors();
    });

    [Theory]
    [InlineData(LaptopWidth, LaptopHeight)]
    [InlineData(1_920, 1_080)]
    public Task DataPages_KeepEveryDateAndNameOnOneLine_UseTheScreensWidth_AndLineUpTheirCharts(int width, int height) => WithDiagnosticsAsync($"glance-data-pages-{width}", async () =>
    {
        var runs = await SeedOneRunOfEachTargetAsync();
        await SeedSweepAsync(runs);
        await Page.SetViewportSizeAsync(width, height);
        var compared = $"{runs[1]},{runs[5]},{runs[7]}";
        foreach (var path in new[] { "", "runs", "sweeps", "admin/audit", "agents", $"compare?runs={compared}", $"results?runs={string.Join(',', runs)}", $"runs/{runs[0]}" })
        {
            await DashboardPages.GotoAsync(Page, App(path));
            await Expect(Page.Locator("main h1")).ToBeVisibleAsync();
            await Expect(Page.Locator("main table").First).ToBeVisibleAsync();
            // Every cell whose text is a date and time ("2026-11-26 09:00…") lays it out on one line.
            var wrapped = await Page.EvaluateAsync<string[]>(
                """
                () => [...document.querySelectorAll('main td, main time')].filter(cell => /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(cell.textContent.trim()))
                  .filter(wraps).map(cell => cell.textContent.trim())
                """.Replace("wraps)", WrapsOverLines + ")", StringComparison.Ordinal));
            Assert.True(wrapped.Length == 0, $"/{path} at {width} px: dates wrapped over two lines: {string.Join("; ", wrapped)}");
            // Every name in a table: a run's or a sweep's (its links), a person's and an agent's. A long one is cut with an
            // ellipsis, never laid over two lines.
            var names = await Page.EvaluateAsync<string[]>(
                """
                () => [...document.querySelectorAll('main table a[href^="runs/"], main table a[href^="sweeps/"], main table [data-name], main table th[data-run]')]
                  .filter(name => name.textContent.trim().length > 0)
                  .map(name => `${wraps(name) ? 'wrapped' : 'one line'}: ${name.textContent.trim()}`)
                """.Replace("wraps(name)", "(" + WrapsOverLines + ")(name)", StringComparison.Ordinal));
            // (A run's own page has no table of names: its name is its heading.)
            Assert.True(names.Length > 0 || path.StartsWith("runs/", StringComparison.Ordinal), $"/{path}: no name found to check.");
            var wrappedNames = names.Where(n => n.StartsWith("wrapped", StringComparison.Ordinal)).ToList();
            Assert.True(wrappedNames.Count == 0, $"/{path} at {width} px: names wrapped over two lines: {string.Join("; ", wrappedNames)}");
            Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), $"/{path} scrolls sideways at {width} px.");
            // A data page is not held in a 960 px column: its main area takes most of the screen's width.
            var mainWidth = await Page.EvaluateAsync<double>("() => document.querySelector('main').getBoundingClientRect().width");
            Assert.True(mainWidth >= Math.Min(width, 1_760) * 0.9, $"/{path} at {width} px: the page is {mainWidth:N0} px wide.");
            if (path.StartsWith("runs/", StringComparison.Ordinal))
            {
                // One time axis for every chart of the run; no colour twice in a chart; latency on a log axis.
                await Expect(Page.Locator("#run-charts")).ToHaveAttributeAsync("data-points", "30");
                Assert.Equal(["0-30"], (await DashboardPages.RunChartRangesAsync(Page)).Distinct());
            }

            if (path.StartsWith("runs/", StringComparison.Ordinal) || path.StartsWith("compare", StringComparison.Ordinal))
            {
                Assert.Empty(await DashboardPages.ChartProblemsAsync(Page));
            }

            var named = new string([.. path.TakeWhile(c => c != '?').Select(c => char.IsLetterOrDigit(c) ? c : '-')]);
            await ScreenshotAsync($"glance-{(named.Length > 0 ? named : "home")}-{width}");
        }

        AssertNoBrowserErrors();
    });

    [Fact]
    public Task NamesOf200CharactersWithoutASpace_NeverPushAPageSideways_AndRunsSideBySideShareTheWidth() => WithDiagnosticsAsync("glance-long-names", async () =>
    {
        // The longest name a profile, a run, a file or an audit line may have, typed without a space.
        var name = new string('y', 196) + Guid.NewGuid().ToString("N")[..4];
        var databases = SeededRuns.Databases(fixture.App.DatabasePath);
        var plan = SeededRuns.Plan(TargetKind.Simulated, name);
        long[] runs =
        [
            await SeededRuns.AddAsync(databases, plan, SeededRuns.Seconds(30, 12_345, 6.29)),
            // Settings that differ, so that the comparison lists them under the runs too.
            await SeededRuns.AddAsync(databases, plan with { Name = Unique("short"), Load = plan.Load with { Concurrency = plan.Load.Concurrency + 1 } }, SeededRuns.Seconds(30, 2_345, 6.29)),
            await SeededRuns.AddAsync(databases, plan with
            {
                Name = Unique("G2"),
                Load = plan.Load with { Concurrency = plan.Load.Concurrency + 2 },
                // A setting whose label is longer than its column is wide.
                Stop = plan.Stop with { AutoStop = new AutoStopOptions { ThrottledFractionAbove = 0.5 } },
            }, SeededRuns.Seconds(30, 4_256, 6.29)),
        ];
        var at = new DateTimeOffset(2026, 11, 27, 9, 0, 0, TimeSpan.Zero);
        var profile = new BenchWeb.Data.ProfileEntity { Name = name, Description = name, PlanJson = plan.ToJson(), CreatedAt = at, UpdatedAt = at };
        await using (var db = await databases.CreateDbContextAsync())
        {
            db.Profiles.Add(profile);
            db.UploadedFiles.Add(new BenchWeb.Data.UploadedFileEntity
            {
                DisplayName = name,
                StoredName = Guid.NewGuid().ToString("N") + ".csv",
                Sha256 = new string('a', 64),
                UploadedBy = "local:admin",
                UploadedAt = at,
                SizeBytes = 12,
                RowCount = 1,
                ColumnCount = 2,
            });
            db.AuditEntries.Add(new BenchWeb.Data.AuditEntryEntity
            {
                At = at.AddYears(1),
                UserId = "local:admin",
                UserName = "admin",
                Role = "Admin",
                Via = "browser",
                RemoteIp = "127.0.0.1",
                Action = "profile.created",
                Subject = $"profile “{name}”",
                Details = $"of the plan \"{name}\"",
                Endpoint = name + ".documents.azure.com",
            });
            await db.SaveChangesAsync();
        }

        foreach (var path in new[] { "", "runs", "profiles", $"profiles/{profile.Id}/settings", "files", "admin/audit", $"runs/{runs[0]}", $"compare?runs={string.Join(',', runs)}" })
        {
            await DashboardPages.GotoAsync(Page, App(path));
            await Expect(Page.Locator("main h1")).ToBeVisibleAsync();
            if (path is not ("" or "runs"))
            {
                // (The home page and the runs list show the newest runs, which other tests may have added since.)
                await Expect(Page.Locator("main")).ToContainTextAsync(name[^20..]);
            }

            Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), $"/{path} scrolls sideways.");
            if (path.EndsWith("/settings", StringComparison.Ordinal))
            {
                await ScreenshotAsync("glance-profile-settings");
            }
        }

        // The comparison's runs, and the settings that differ between them, share the width equally, the long name and all.
        foreach (var table in new[] { "#comparison-table", "#config-diff" })
        {
            var widths = await Page.EvaluateAsync<double[]>($"() => [...document.querySelectorAll('{table} thead th[data-run]')].map(th => th.getBoundingClientRect().width)");
            Assert.Equal(runs.Length, widths.Length);
            Assert.True(widths.Max() - widths.Min() <= 2, $"{table}: the runs' columns are {string.Join(", ", widths.Select(w => $"{w:N0}"))} px wide.");
        }

        // Every figure's and setting's label fits its column, wrapped where it must, never spilled into the first run's cells.
        var spilled = await Page.EvaluateAsync<string[]>(
            "() => [...document.querySelectorAll('#comparison-table tbody th, #config-diff tbody th')].filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent.trim())");
        Assert.True(spilled.Length == 0, "Labels wider than their column: " + string.Join("; ", spilled));

        await ScreenshotAsync("glance-long-names-compare");
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task AdminSettings_ShowTheKillSwitchReasonAndEndpointPlaceholdersWhole_OnALaptopScreen() => WithDiagnosticsAsync("glance-admin-settings", async () =>
    {
        await DashboardPages.GotoAsync(Page, App("admin/settings"));
        await Expect(Page.Locator("#kill-switch-reason")).ToBeVisibleAsync();
        await Expect(Page.Locator("#check-endpoint")).ToBeVisibleAsync();

        // Each placeholder, measured in its input's own font, fits inside the input's text box.
        var cut = await Page.EvaluateAsync<string[]>(
            """
            () => ['kill-switch-reason', 'check-endpoint'].map(id => {
              const input = document.getElementById(id);
              const style = getComputedStyle(input);
              const context = document.createElement('canvas').getContext('2d');
              context.font = style.font;
              const needed = context.measureText(input.placeholder).width;
              const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
              return needed <= room ? '' : `${id}: ${Math.round(needed)} px of placeholder in ${Math.round(room)} px`;
            }).filter(text => text)
            """);
        Assert.True(cut.Length == 0, "Placeholders cut: " + string.Join("; ", cut));
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The page scrolls sideways.");
        await ScreenshotAsync("glance-admin-settings");
        AssertNoBrowserErrors();
    });

    [Fact]
    public Task ProfileEditor_DrawsEachTargetsSectionFromItsModule_OnALaptopScreen() => WithDiagnosticsAsync("glance-target-sections", async () =>
    {
        await DashboardPages.GotoAsync(Page, App("profiles/new?preset=RD2"));
        await Expect(Page.Locator("[id='Target.Redis.Host']")).ToBeVisibleAsync();
        await Expect(Page.Locator("[id='Target.Kind']")).ToHaveValueAsync("Redis");
        // The preset leaves the host empty: the rule asks for the cache beside that input once anything changes.
        await DashboardPages.FillAsync(Page, "Name", "Redis at a glance");
        await Expect(Page.Locator(".validation-message[data-field='Target.Redis.Host']")).ToContainTextAsync("host");
        await Expect(Page.Locator("[id='Target.Redis.Host']")).ToHaveAttributeAsync("aria-invalid", "true");
        Assert.True(await Page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"), "The editor scrolls sideways.");
        await ScreenshotAsync("glance-profile-redis");

        // Every registered kind draws its own section when chosen, and no other's.
        foreach (var module in TargetRegistry.All)
        {
            await Page.Locator("[id='Target.Kind']").SelectOptionAsync(module.Kind.Name);
            foreach (var field in module.Fields.Where(f => f.AppliesWhen is null && f.Input != TargetInput.Secret))
            {
                await Expect(Page.Locator($"[id='{field.Path}']")).ToBeVisibleAsync();
            }
        }

        // After every kind was drawn, a setting that breaks its module's rule outlines its own input (the inputs of one kind
        // are not reused for another's) with the rule's message beside it, and nothing else.
        await Page.Locator("[id='Target.Kind']").SelectOptionAsync(TargetKind.Simulated.Name);
        await DashboardPages.FillAsync(Page, "Target.Simulator.ProvisionedRequestUnits", "300");
        await Expect(Page.Locator("[id='Target.Simulator.ProvisionedRequestUnits']")).ToHaveAttributeAsync("aria-invalid", "true");
        await Expect(Page.Locator("[aria-invalid='true']")).ToHaveCountAsync(1);
        await Expect(Page.Locator(".validation-message[data-field='Target.Simulator.ProvisionedRequestUnits']")).ToContainTextAsync("At least 400 RU/s");
        await ScreenshotAsync("glance-profile-simulator-rule");

        await Page.Locator("[id='Target.Kind']").SelectOptionAsync(TargetKind.BlobStorage.Name);
        await ScreenshotAsync("glance-profile-blob");
        AssertNoBrowserErrors();
    });

    // A run of each kind of target, with profile names as long as real ones, the figures as the engine computes them.
    private async Task<IReadOnlyList<long>> SeedOneRunOfEachTargetAsync()
    {
        var databases = SeededRuns.Databases(fixture.App.DatabasePath);
        return
        [
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.Simulated, Unique("G17: 20,000 RU/s, 100 tasks × 10,000 upserts (simulated)")),
                SeededRuns.Seconds(30, 12_345, 6.29), targetDescription: "Simulated Cosmos DB (model) · 400,000 RU/s · 40 partitions"),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.CosmosSql, Unique("G2: Direct mode, 10 tasks × 100,000 upserts")),
                SeededRuns.Seconds(30, 4_256, 6.29), targetDescription: "Cosmos DB (SQL API) · bench.documents.azure.com · Direct · bulk"),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.TableStorage, Unique("L3: Flights into Table Storage, 10 parallel batches of 100 in waves")),
                SeededRuns.Seconds(30, 1_480, 0, batchSize: 100)),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.CosmosTable, Unique("L4: Flights into the Cosmos DB Table API, 10 parallel batches of 100 in waves")),
                SeededRuns.Seconds(30, 480, 17.31, batchSize: 100)),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.NoOp, Unique("Client alone, open loop at 12,500/s")),
                SeededRuns.Seconds(30, 12_500, 0), RunStatus.Interrupted, withSummary: false),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.BlobStorage, Unique("BL1: 1 KB block blobs, 10 parallel writers")),
                SeededRuns.Seconds(30, 2_150, 0)),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.QueueStorage, Unique("Q1: 1 KB messages, 10 parallel senders")),
                SeededRuns.Seconds(30, 1_900, 0)),
            await SeededRuns.AddAsync(databases, SeededRuns.Plan(TargetKind.Redis, Unique("RD2: 1 KB SET, 50 clients, pipelines of 10")),
                SeededRuns.Seconds(30, 48_000, 0, batchSize: 10)),
        ];
    }

    // A sweep with a name as long as a study's, the first seeded runs its steps (the runs list names it in its Sweep column).
    private async Task SeedSweepAsync(IReadOnlyList<long> runs)
    {
        var databases = SeededRuns.Databases(fixture.App.DatabasePath);
        await using var db = await databases.CreateDbContextAsync();
        var plan = SeededRuns.Plan(TargetKind.Simulated, Unique("G-study: connection mode and workers against 20,000 RU/s, 100 tasks × 10,000 upserts"));
        var sweep = new BenchWeb.Data.SweepEntity
        {
            Name = plan.Name,
            PlanJson = plan.ToJson(),
            SweepJson = System.Text.Json.JsonSerializer.Serialize(new BenchEngine.Sweeps.SweepOptions { Setting = "Load.Concurrency", Values = ["16", "32"] }, RunPlan.JsonOptions),
            Status = RunStatus.Completed,
            QueuedAt = new DateTimeOffset(2026, 11, 21, 9, 0, 0, TimeSpan.Zero),
            StopReason = "2 steps ran",
        };
        db.Sweeps.Add(sweep);
        await db.SaveChangesAsync();
        var steps = await db.Runs.Where(r => r.Id == runs[0] || r.Id == runs[4]).ToListAsync();
        for (var i = 0; i < steps.Count; i++)
        {
            steps[i].SweepId = sweep.Id;
            steps[i].SweepStep = i;
        }

        await db.SaveChangesAsync();

        // The audit log's line for it, by a person whose name is as long as a directory's display names get.
        db.AuditEntries.Add(new BenchWeb.Data.AuditEntryEntity
        {
            At = sweep.QueuedAt,
            UserId = "oid:6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b",
            UserName = "Maximiliane Rautenstrauch-Oyelaran (Performance Engineering, EMEA)",
            Role = "Runner",
            Via = "browser",
            RemoteIp = "127.0.0.1",
            Action = "sweep.launched",
            Subject = $"sweep #{sweep.Id}",
            Details = $"Concurrency over 16, 32; 2 steps of \"{sweep.Name}\"",
        });
        await db.SaveChangesAsync();
    }

    private Uri App(string relative) => new(fixture.App.BaseAddress, relative);

    private async Task ScreenshotAsync(string name)
    {
        Directory.CreateDirectory(DashboardBrowserTests.ScreenshotDirectory);
        var path = Path.Combine(DashboardBrowserTests.ScreenshotDirectory, name + ".png");
        await Page.ScreenshotAsync(new PageScreenshotOptions { Path = path, FullPage = true });
        Assert.True(new FileInfo(path).Length > 10_000, "The screenshot is (nearly) empty.");
    }

    // A page answered 404 on purpose logs "Failed to load resource" for itself.
    private void AssertNoBrowserErrors(bool ignoreNotFound = false)
    {
        var errors = _watched!.Errors.Where(e => !(ignoreNotFound && e.Contains("404", StringComparison.Ordinal))).ToList();
        Assert.True(errors.Count == 0, string.Join('\n', errors));
    }

    private Task WithDiagnosticsAsync(string name, Func<Task> steps) =>
        BrowserDiagnostics.RunAsync(_watched?.Page, name, () => _watched!.Errors, () => fixture.App.Output, steps);

    private static string Unique(string name) => $"{name} {Guid.NewGuid().ToString("N")[..4]}";
}
