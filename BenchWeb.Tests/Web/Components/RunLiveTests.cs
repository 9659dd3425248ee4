using BenchEngine.Metrics;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Live;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.EntityFrameworkCore;
using Microsoft.JSInterop;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class RunLiveTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 21, 9, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task Live_FirstRender_StartsTheChartModuleWithWhatThePageHas_AndFollowsTheRunsFeed()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 3);
        var (module, view) = RunChartModule.SetUp(context);
        var feed = context.Services.GetRequiredService<LiveFeed>();

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Equal(1, feed.SubscribersOf(LiveTopic.Run(runId))));

        // Two calls in all (every call is recorded by the context's interop too): the import, then start on the module.
        Assert.Equal(2, context.JSInterop.Invocations.Count);
        Assert.Equal(RunLive.ModulePath, Assert.Single(Assert.Single(context.JSInterop.Invocations["import"]).Arguments));
        var start = Assert.Single(module.Interop.Invocations["start"]).Arguments;
        Assert.IsType<ElementReference>(start[0]);
        var options = start[1]!;
        Assert.Equal(10_000d, options.GetType().GetProperty("provisionedRequestUnits")!.GetValue(options));
        // The charts get the seconds the page read; no connection of their own.
        Assert.Null(options.GetType().GetProperty("hubUrl"));
        Assert.Equal([0, 1, 2], Assert.IsAssignableFrom<IEnumerable<RunSecondEntity>>(start[2]).Select(s => s.Index));
        Assert.False(module.Disposed);
        Assert.False(view.Disposed);

        // Leaving the page ends its subscription.
        await context.DisposeComponentsAsync();
        Assert.Equal(0, feed.SubscribersOf(LiveTopic.Run(runId)));
    }

    [Fact]
    public async Task Ended_ARunWithClientLimitedSeconds_SaysSoAboveItsFigures_AndOneWithoutSaysNothing()
    {
        await using var context = new BenchWebComponentContext();
        var limitedId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 3);
        var cleanId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 3);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            foreach (var (id, limited) in new[] { (limitedId, 2), (cleanId, 0) })
            {
                var run = await db.Runs.FindAsync(id);
                run!.Status = RunStatus.Completed;
                run.SummaryJson = System.Text.Json.JsonSerializer.Serialize(new RunSummary { TotalOk = 3_000, Elapsed = TimeSpan.FromSeconds(3), ClientLimitedSeconds = limited }, RunPlan.JsonOptions);
            }

            await db.SaveChangesAsync();
        }

        RunChartModule.SetUp(context);
        var page = RenderFollowing(context, limitedId);
        var clean = RenderFollowing(context, cleanId);

        Assert.Equal("The client, not the service, was the limit in 2 of 3 seconds: those seconds measure this machine, not the service. Which seconds and why",
            System.Text.RegularExpressions.Regex.Replace(page.Find("#client-limited-run").TextContent, @"\s+", " ").Trim());
        Assert.Equal($"runs/{limitedId}#client-limited", page.Find("#client-limited-run a").GetAttribute("href"));
        Assert.Empty(clean.FindAll("#client-limited-run"));
    }

    [Fact]
    public async Task Header_LabelsTheNoOpTargetAsTheClientAlone_AndTheSimulatorAsAModel()
    {
        await using var context = new BenchWebComponentContext();
        var noOp = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.NoOp, "client alone"), SeededRuns.Seconds(3, 1_000, 0));
        var simulated = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "model"), SeededRuns.Seconds(3, 1_000, 5));
        RunChartModule.SetUp(context);

        Assert.Equal("no service — the client alone", RenderFollowing(context, noOp).Find(".run-target .badge.model").TextContent);
        Assert.Equal("simulated — a model, not Azure", RenderFollowing(context, simulated).Find(".run-target .badge.model").TextContent);
    }

    [Fact]
    public async Task Window_NoneDetectedInALongRunMostlyClientLimited_SaysThatReasonAndTheBadgeSaysWholeRun()
    {
        // A 60 s simulated run on a busy machine: the client was the limit in 59 of its 61 seconds, leaving 2 of the service's.
        await using var context = new BenchWebComponentContext();
        var seconds = SeededRuns.Seconds(61, 1_000, 5).Select(s => s with { ClientCpuPercent = s.Index is 10 or 30 ? 40 : 100 }).ToList();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "busy machine"), seconds);
        RunChartModule.SetUp(context);

        var page = RenderFollowing(context, runId);

        page.WaitForAssertion(() => Assert.NotEmpty(page.FindAll("#run-window")));
        var reason = "the client was the limit in 59 seconds, leaving fewer than 3 of the service's seconds (a window needs 3)";
        Assert.Equal($"none: {reason}", page.Find("[data-summary='steady-state']").TextContent);
        var hint = System.Text.RegularExpressions.Regex.Replace(page.Find("#run-window .hint").TextContent, "\\s+", " ");
        Assert.True(hint.Contains($"No steady state was detected: {reason}; the default is the whole run.", StringComparison.Ordinal), hint);
        Assert.DoesNotContain("too short", page.Markup, StringComparison.Ordinal);
        var badge = page.Find("#window-origin");
        Assert.Equal(("badge whole-run", "whole run"), (badge.ClassName, badge.TextContent));
        Assert.Equal(("0", "60"), (page.Find("#window-first").GetAttribute("value"), page.Find("#window-last").GetAttribute("value")));
    }

    [Fact]
    public async Task Live_SecondFromTheFeed_RendersTheTilesAndHandsItsPointToTheCharts()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var (module, view) = RunChartModule.SetUp(context);
        var page = RenderFollowing(context, runId);
        Assert.Equal("2,000", page.Find("[data-tile='total-ok']").TextContent);
        Assert.NotNull(page.Find("#client-bound").GetAttribute("hidden"));

        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        await publisher.SecondAsync(Second(runId, 2, ok: 1_500, throttled: 30), null, CancellationToken.None);
        await publisher.SecondAsync(Second(runId, 3, ok: 500, throttled: 10, cpu: 91), null, CancellationToken.None);

        page.WaitForAssertion(() => Assert.Equal("3", page.Find("#run-tiles").GetAttribute("data-index")));
        Assert.Equal("4,000", page.Find("[data-tile='total-ok']").TextContent);
        Assert.Equal("500", page.Find("[data-tile='current-rate']").TextContent);
        Assert.Equal("1,000", page.Find("[data-tile='average-rate']").TextContent);
        Assert.Equal("0.99%", page.Find("[data-tile='throttled']").TextContent.Replace(" ", "", StringComparison.Ordinal));
        Assert.Null(page.Find("#client-bound").GetAttribute("hidden"));
        Assert.Equal("the client was busy: this process 91 %", page.Find("[data-tile='client-limit']").TextContent);
        Assert.Equal("6", page.Find("[role=progressbar]").GetAttribute("aria-valuenow"));
        // Each second handed to the charts once, named as the one that arrived live.
        var added = view.Interop.Invocations["add"].Select(i => (Indices: Indices(i.Arguments[0]), Live: i.Arguments[1])).ToList();
        Assert.Equal([([2], (object?)2), ([3], 3)], added.Select(a => (a.Indices, a.Live)));
        _ = module;
    }

    [Fact]
    public async Task Live_SecondPastOnesThePageNeverGot_FetchesTheMissingOnesFirst()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var (_, view) = RunChartModule.SetUp(context);
        var page = RenderFollowing(context, runId);

        // Seconds 2 and 3 were saved, but their messages never reached this instance (lost between instances, say).
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.RunSeconds.AddRange(Second(runId, 2, ok: 1_000), Second(runId, 3, ok: 1_000));
            await db.SaveChangesAsync();
        }

        await context.Services.GetRequiredService<RunUpdatePublisher>().SecondAsync(Second(runId, 4, ok: 1_000), null, CancellationToken.None);

        page.WaitForAssertion(() => Assert.Equal("4", page.Find("#run-tiles").GetAttribute("data-index")));
        Assert.Equal("5,000", page.Find("[data-tile='total-ok']").TextContent);
        var added = Assert.Single(view.Interop.Invocations["add"]).Arguments;
        Assert.Equal([2, 3, 4], Indices(added[0]));
        Assert.Equal(4, added[1]);
    }

    [Fact]
    public async Task Live_WhatHappensWhileTheChartsLoad_IsShownOnceTheyHave()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var (module, view) = RunChartModule.SetUp(context, loaded: false);
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(context.JSInterop.Invocations["import"]));

        // The page has read the run and waits for the browser's chart module; meanwhile a second is saved and the run ends.
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.RunSeconds.Add(Second(runId, 2, ok: 1_000));
            var run = await db.Runs.FindAsync(runId);
            run!.Status = RunStatus.Completed;
            run.SummaryJson = System.Text.Json.JsonSerializer.Serialize(new RunSummary { TotalOk = 3_000, AverageThroughput = 1_000, Elapsed = TimeSpan.FromSeconds(3) }, RunPlan.JsonOptions);
            await db.SaveChangesAsync();
        }

        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        await publisher.SecondAsync(Second(runId, 2, ok: 1_000), null, CancellationToken.None);
        await publisher.StatusAsync(new RunStatusChange(runId, RunStatus.Completed, null), CancellationToken.None);
        Assert.Single(page.FindAll("#cancel-run"));

        module.Answer();

        page.WaitForAssertion(() => Assert.Contains("data-status=\"Completed\"", page.Markup, StringComparison.Ordinal));
        Assert.Equal("2", page.Find("#run-tiles").GetAttribute("data-index"));
        Assert.Empty(page.FindAll("#cancel-run"));
        // The charts start with the two seconds read (a list the page goes on filling: not checked here), then get the third
        // once, caught up on: it waited for the page, it did not arrive live.
        Assert.Single(module.Interop.Invocations["start"]);
        var added = view.Interop.Invocations["add"].Select(i => (Indices: Indices(i.Arguments[0]), Live: i.Arguments[1])).ToList();
        Assert.Equal([([2], (object?)null)], added.Select(a => (a.Indices, a.Live)));

        // The next one arrives live.
        await publisher.SecondAsync(Second(runId, 3, ok: 1_000), null, CancellationToken.None);
        page.WaitForAssertion(() => Assert.Equal(2, view.Interop.Invocations["add"].Count));
        Assert.Equal(3, view.Interop.Invocations["add"][1].Arguments[1]);
        page.WaitForAssertion(() => Assert.NotEmpty(view.Interop.Invocations["drawAll"]));
    }

    [Fact]
    public async Task Live_AnotherRunsLink_ShowsThatRun_AndFollowsItAlone()
    {
        await using var context = new BenchWebComponentContext();
        var first = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var other = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 3);
        var (module, view) = RunChartModule.SetUp(context);
        var feed = context.Services.GetRequiredService<LiveFeed>();
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, first));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));

        // A link to another run (one ahead in the queue) gives the same page the other's number.
        page.Render(parameters => parameters.Add(p => p.Id, other));

        page.WaitForAssertion(() => Assert.Equal(2, module.Interop.Invocations["start"].Count));
        Assert.Single(view.Interop.Invocations["stop"]);
        Assert.Equal(0, feed.SubscribersOf(LiveTopic.Run(first)));
        Assert.Equal(1, feed.SubscribersOf(LiveTopic.Run(other)));
        Assert.Equal([0, 1, 2], Indices(module.Interop.Invocations["start"][1].Arguments[2]));
        Assert.Equal("3,000", page.Find("[data-tile='total-ok']").TextContent);

        // The first run's seconds no longer reach it; the other's do.
        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        await publisher.SecondAsync(Second(first, 2, ok: 5_000), null, CancellationToken.None);
        await publisher.SecondAsync(Second(other, 3, ok: 1_000), null, CancellationToken.None);
        page.WaitForAssertion(() => Assert.Equal("3", page.Find("#run-tiles").GetAttribute("data-index")));
        Assert.Equal("4,000", page.Find("[data-tile='total-ok']").TextContent);
    }

    [Fact]
    public void Live_TheBrowserNeverCallsThePage()
    {
        // Seconds and status changes come from the run's feed on the server: nothing in the browser calls into the circuit.
        var callbacks = typeof(RunLive).GetMethods().Where(m => m.IsDefined(typeof(JSInvokableAttribute), inherit: false));

        Assert.Empty(callbacks);
    }

    [Fact]
    public async Task Live_StatusChangeToCompleted_ShowsTheSummaryAndHidesCancel_AndHasEveryChartDrawn()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var view = RunChartModule.SetUp(context).View;
        var page = RenderFollowing(context, runId);
        Assert.Single(page.FindAll("#cancel-run"));
        // While the run goes on, the page's script redraws only the charts in view.
        Assert.Empty(view.Interop.Invocations["drawAll"]);

        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.FindAsync(runId);
            run!.Status = RunStatus.Completed;
            run.StopReason = "reached 2,000 documents";
            run.SummaryJson = System.Text.Json.JsonSerializer.Serialize(new RunSummary { TotalOk = 2_000, AverageThroughput = 1_000, Elapsed = TimeSpan.FromSeconds(2) }, RunPlan.JsonOptions);
            await db.SaveChangesAsync();
        }

        await context.Services.GetRequiredService<RunUpdatePublisher>().StatusAsync(new RunStatusChange(runId, RunStatus.Completed, null), CancellationToken.None);

        page.WaitForAssertion(() => Assert.Empty(page.FindAll("#cancel-run")));
        var markup = page.Markup;
        Assert.Contains("data-status=\"Completed\"", markup, StringComparison.Ordinal);
        Assert.Contains("Ended: reached 2,000 documents", markup, StringComparison.Ordinal);
        Assert.Contains("1,000.0 inserts/s", markup, StringComparison.Ordinal);
        // Once it has ended, every chart is drawn, in view or not (the page may be printed or captured whole).
        page.WaitForAssertion(() => Assert.Single(view.Interop.Invocations["drawAll"]));
    }

    [Fact]
    public async Task Live_CancelButton_CancelsTheQueuedRun()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Queued, secondsSaved: 0);
        var (module, _) = RunChartModule.SetUp(context);
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));

        await page.Find("#cancel-run").ClickAsync(new MouseEventArgs());

        Assert.Contains("data-status=\"Cancelled\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Queued_SaysItsPlaceAndTheRunItWaitsFor_AndShowsNoFigures_UntilItStarts()
    {
        await using var context = new BenchWebComponentContext();
        var executing = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 2);
        var before = await SeedRunAsync(context, RunStatus.Queued, secondsSaved: 0);
        var runId = await SeedRunAsync(context, RunStatus.Queued, secondsSaved: 0);
        RunChartModule.SetUp(context);
        var page = RenderFollowing(context, runId);

        var notice = page.Find("#run-queued");
        Assert.Equal("2", notice.GetAttribute("data-position"));
        Assert.Equal("Queued, 2nd in line (1 queued before it).", notice.QuerySelector("p")!.TextContent);
        Assert.Equal($"It waits for what executes now: run #{executing} Live test.", Normalized(page.Find("#run-queued-waits").TextContent));
        Assert.Equal($"runs/{executing}", page.Find("#run-queued-waits a").GetAttribute("href"));
        Assert.StartsWith("This installation executes one run at a time", page.Find("#run-queued p.muted").TextContent, StringComparison.Ordinal);
        // No tiles, cost, progress or empty charts for a run that has measured nothing yet.
        Assert.NotNull(page.Find("#run-measured").GetAttribute("hidden"));

        // The run ahead ends and the one queued before this starts: another run's status change moves this one up.
        var publisher = context.Services.GetRequiredService<RunUpdatePublisher>();
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            await db.Runs.Where(r => r.Id == executing).ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Completed));
            await db.Runs.Where(r => r.Id == before).ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Running));
        }

        await publisher.StatusAsync(new RunStatusChange(before, RunStatus.Running, null), CancellationToken.None);
        page.WaitForAssertion(() => Assert.Equal("1", page.Find("#run-queued").GetAttribute("data-position")));
        Assert.Equal($"runs/{before}", page.Find("#run-queued-waits a").GetAttribute("href"));

        // That one ends and this one starts: its own status change brings the figures in, and the notice goes.
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            await db.Runs.Where(r => r.Id == before).ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Completed));
            await db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(s => s.SetProperty(r => r.Status, RunStatus.Running).SetProperty(r => r.StartedAt, Start));
        }

        await publisher.StatusAsync(new RunStatusChange(runId, RunStatus.Running, null), CancellationToken.None);
        page.WaitForAssertion(() => Assert.Empty(page.FindAll("#run-queued")));
        Assert.Null(page.Find("#run-measured").GetAttribute("hidden"));
        // It left the queue's topic with the queue.
        Assert.Equal(0, context.Services.GetRequiredService<LiveFeed>().SubscribersOf(LiveTopic.Queue));
    }

    private static string Normalized(string text) => System.Text.RegularExpressions.Regex.Replace(text, @"\s+", " ").Trim();

    [Fact]
    public async Task Live_UnplannedInterop_FailsTheComponentInStrictMode()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 1);

        // No module set up: the page's import is not allowed, so a stray interop call cannot go unnoticed. The
        // import follows the first render of the loaded page, which may come after Render returns.
        var error = await Assert.ThrowsAsync<JSRuntimeUnhandledInvocationException>(async () =>
        {
            context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
            throw await context.Renderer.UnhandledException.WaitAsync(TimeSpan.FromSeconds(10));
        });
        Assert.Equal("import", error.Invocation.Identifier);
        Assert.Equal(RunLive.ModulePath, Assert.Single(error.Invocation.Arguments));
    }

    [Fact]
    public async Task Finished_CompletedRun_DropsWhatOnlyALiveRunHas()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Finished"), SeededRuns.Seconds(5, 1_000, 6));
        var (module, _) = RunChartModule.SetUp(context);
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));

        var markup = page.Markup;
        Assert.Empty(page.FindAll("[data-tile='current-rate']"));
        Assert.DoesNotContain("left", page.Find("#run-tiles").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("in flight", page.Find("#run-tiles").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("#live-error"));
        Assert.NotEmpty(page.FindAll("[data-tile='average-rate']"));
    }

    [Fact]
    public async Task Finished_FailedRunThatMeasuredNothing_ShowsItsReasonNotATableOfZeros()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.CosmosSql, "Refused"), [], RunStatus.Failed,
            failureReason: "The target could not be opened: the account key was refused (401).");

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Contains("the account key was refused", page.Find("#failure-reason").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("#run-summary"));
        Assert.Empty(page.FindAll("#run-tiles"));
        Assert.Empty(page.FindAll("#run-charts"));
        Assert.Contains("nothing was measured", page.Markup, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Finished_InterruptedRunWithTheSummaryOfItsSeconds_ShowsItMarkedPartialWithoutLatency()
    {
        await using var context = new BenchWebComponentContext();
        var seconds = SeededRuns.Seconds(8, 1_000, 6);
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Left running"), seconds, RunStatus.Interrupted, withSummary: false,
            failureReason: "BenchWeb stopped while this run was running; the seconds saved until then are kept.");
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.SingleAsync(r => r.Id == runId);
            run.SummaryJson = System.Text.Json.JsonSerializer.Serialize(SummaryCalculator.Calculate(seconds, new LatencyDistribution()), RunPlan.JsonOptions);
            await db.SaveChangesAsync();
        }

        var (module, _) = RunChartModule.SetUp(context);
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));

        var summary = page.Find("#run-summary").TextContent;
        Assert.Contains("partial", summary, StringComparison.Ordinal);
        Assert.Contains("not kept", summary, StringComparison.Ordinal);
        Assert.DoesNotContain("0.0 ms", summary, StringComparison.Ordinal);
        Assert.Contains(seconds.Sum(s => s.Ok).ToString("N0", System.Globalization.CultureInfo.CurrentCulture), summary, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Finished_Settings_AreLabelledSectionsOfWhatApplies_WithTheRawJsonInAFold()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.TableStorage, "Flights"), SeededRuns.Seconds(3, 1_000, 0, batchSize: 100));
        var (module, _) = RunChartModule.SetUp(context);
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["start"]));

        var settings = page.Find("#run-settings");
        var sections = settings.QuerySelectorAll("[data-section]").Select(e => e.GetAttribute("data-section") ?? "").ToArray();
        Assert.Equal(["Target", "Workload", "Load", "Client settings", "Stop"], sections);
        Assert.Equal("Table Storage", settings.QuerySelector("[data-path='target.kind'] td")!.TextContent.Trim());
        Assert.Equal("flights", settings.QuerySelector("[data-path='target.tables.tableName'] td")!.TextContent.Trim());
        Assert.Equal("100", settings.QuerySelector("[data-path='load.batchSize'] td")!.TextContent.Trim());
        // Nothing of Cosmos DB or the simulator on a Table Storage run.
        Assert.Empty(settings.QuerySelectorAll("[data-path^='target.cosmos'], [data-path^='target.simulator']"));
        // The snapshot as stored, folded away.
        Assert.Equal("DETAILS", page.Find("#plan-json").ParentElement!.TagName);
    }

    [Fact]
    public async Task Finished_SettingsOfARunWithAStoredConnectionString_ShowNeitherItNorItsKey()
    {
        await using var context = new BenchWebComponentContext();
        const string Key = "VGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rz";
        var form = ProfileForms.Draft("Tables", TargetKind.TableStorage).WithNewSecret(ProfileForms.TablesConnectionString, $"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={Key}==;EndpointSuffix=core.windows.net");
        var profiles = context.Services.GetRequiredService<BenchWeb.Profiles.ProfileService>();
        var profileId = await profiles.SaveAsync(0, form, TestActors.Admin, CancellationToken.None);
        var plan = RunPlan.FromJson((await context.Services.GetRequiredService<BenchWeb.Profiles.ProfileReader>().FindAsync(profileId, CancellationToken.None))!.PlanJson);
        var runId = await context.Services.GetRequiredService<BenchWeb.Launch.RunService>().StartAsync(plan, profileId, null, TestActors.Admin, CancellationToken.None);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            // Ended, with the snapshot it was launched with.
            var run = await db.Runs.SingleAsync(r => r.Id == runId);
            run.Status = RunStatus.Completed;
            await db.SaveChangesAsync();
        }

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForElement("#run-settings");

        var markup = page.Markup;
        Assert.DoesNotContain(Key, markup, StringComparison.Ordinal);
        Assert.DoesNotContain("AccountKey", markup, StringComparison.Ordinal);
        Assert.Equal("benchweb", page.Find("#run-settings [data-path='target.tables.tableName'] td").TextContent);
        // Where a secret is kept is not a setting: no row names it.
        Assert.Empty(page.FindAll("#run-settings [data-path$='Secret']"));
    }

    // The page, rendered and following its run's feed.
    [Fact]
    public async Task Live_SweepStep_SaysWhichStepOfWhichSweepAndLinksToIt()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 1);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var sweep = new SweepEntity { Name = "tuning", PlanJson = "{}", SweepJson = "{}", Status = RunStatus.Running, QueuedAt = Start };
            db.Sweeps.Add(sweep);
            await db.SaveChangesAsync();
            var run = await db.Runs.FindAsync(runId);
            run!.SweepId = sweep.Id;
            run.SweepStep = 2;
            await db.SaveChangesAsync();
        }

        RunChartModule.SetUp(context);
        var page = RenderFollowing(context, runId);

        var line = page.Find("#run-sweep");
        Assert.Equal("Step 3 of sweep tuning", System.Text.RegularExpressions.Regex.Replace(line.TextContent, "\\s+", " ").Trim());
        Assert.Equal("sweeps/1", line.QuerySelector("a")!.GetAttribute("href"));
    }

    private static IRenderedComponent<RunLive> RenderFollowing(BenchWebComponentContext context, long runId)
    {
        var feed = context.Services.GetRequiredService<LiveFeed>();
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Equal(1, feed.SubscribersOf(LiveTopic.Run(runId))));
        // Events published from now on queue in the subscription until the page reads them.
        return page;
    }

    private static int[] Indices(object? seconds) => [.. Assert.IsAssignableFrom<IEnumerable<RunSecondEntity>>(seconds).Select(s => s.Index)];

    [Fact]
    public async Task Load_RunWithManySeconds_ReadsThemInOneReadAndNoMoreQueriesThanAFew()
    {
        await using var context = new BenchWebComponentContext();
        var few = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 3);
        var many = await SeedRunAsync(context, RunStatus.Running, secondsSaved: 600);
        var (module, _) = RunChartModule.SetUp(context);

        var readForFew = await QueriesOfLoadingAsync(context, module, few, 1);
        var readForMany = await QueriesOfLoadingAsync(context, module, many, 2);

        // However many seconds the run has, the same queries: the seconds come in one read, never one query a second.
        Assert.Equal(readForFew, readForMany);
        Assert.True(ExpectedLoad.SequenceEqual(readForMany), "The page read: " + string.Join(" | ", readForMany));
    }

    // Loading: the row with its sweep's name, its seconds (RunReader.WithSecondsAsync), its slow requests; nothing again once
    // the charts have started (what changed meanwhile waits in the page's subscription).
    private static readonly string[] ExpectedLoad = ["Sweeps + Runs", "Runs + RunSeconds", "RunDiagnostics"];

    // The tables each query of the page's load reads, until the charts have started and the page has caught up.
    private static async Task<IReadOnlyList<string>> QueriesOfLoadingAsync(BenchWebComponentContext context, JSObjectSetup module, long runId, int starts)
    {
        context.Commands.Clear();
        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.Equal(starts, module.Interop.Invocations["start"].Count));
        // The slow requests are the last read: wait for it, and a moment more for any read beyond it.
        await Eventually.TrueAsync(() => Task.FromResult(context.Commands.Queries.Count >= ExpectedLoad.Length), TimeSpan.FromSeconds(15), "the page's reads");
        await Task.Delay(300);
        await context.DisposeComponentsAsync();
        return context.Commands.TablesRead;
    }

    private static async Task<long> SeedRunAsync(BenchWebComponentContext context, RunStatus status, int secondsSaved)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var plan = new RunPlan { Name = "Live test", Stop = new StopOptions { DurationSeconds = 60 } };
        var run = new RunEntity
        {
            ProfileName = plan.Name,
            PlanJson = plan.ToJson(),
            Status = status,
            QueuedAt = Start,
            StartedAt = status == RunStatus.Queued ? null : Start,
            TargetDescription = status == RunStatus.Queued ? null : "Simulated Cosmos DB (model) · 10,000 RU/s · 1 partition",
            TargetIsModel = true,
            ProvisionedRequestUnits = 10_000,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        for (var i = 0; i < secondsSaved; i++)
        {
            db.RunSeconds.Add(Second(run.Id, i, ok: 1_000));
        }

        await db.SaveChangesAsync();
        return run.Id;
    }

    private static RunSecondEntity Second(long runId, int index, long ok, long throttled = 0, double cpu = 20) => new()
    {
        RunId = runId,
        Index = index,
        ElapsedSeconds = index + 1,
        DurationSeconds = 1,
        Ok = ok,
        OkRequests = ok,
        Throttled = throttled,
        RequestUnits = ok * 6,
        ClientCpuPercent = cpu,
        ClosedAt = Start.AddSeconds(index + 1),
    };
}
