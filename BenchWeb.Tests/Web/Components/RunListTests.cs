using System.Text.RegularExpressions;
using AngleSharp.Dom;
using AngleSharp.Html.Dom;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Tests.Support.Components;
using Bunit;
using Microsoft.AspNetCore.Components.Web;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class RunListTests
{
    private static readonly DateTimeOffset Day = new(2026, 11, 10, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task List_QueryString_FillsTheFiltersAndFiltersTheRows()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?profile=gate&target=CosmosSql&status=Completed&from=2026-11-01&to=2026-11-30&tag=2%20cores&notes=warm&sort=throughput&dir=asc");
        var gateway = await AddAsync(context, "Gateway", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,2 cores,", notes: "warm-up was slow");
        await AddAsync(context, "Gateway", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,", notes: "warm-up was slow");
        await AddAsync(context, "Direct", TargetKind.CosmosSql, RunStatus.Completed, tags: ",2 cores,", notes: "warm");

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var markup = page.Markup;
        Assert.Contains("id=\"filter-profile\" value=\"gate\"", markup, StringComparison.Ordinal);
        Assert.Equal(["CosmosSql"], Selected(page.FindAll("#filter-target option")));
        Assert.Equal(["Completed"], Selected(page.FindAll("#filter-status option")));
        Assert.Contains("id=\"filter-from\" value=\"2026-11-01\"", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"filter-to\" value=\"2026-11-30\"", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"filter-tag\" value=\"2 cores\"", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"filter-notes\" value=\"warm\"", markup, StringComparison.Ordinal);
        Assert.Equal([gateway], RunIds(markup));
        Assert.Contains("Page 1 of 1, 1 run<", markup, StringComparison.Ordinal);
        Assert.Contains("aria-sort=\"ascending\"", markup, StringComparison.Ordinal);
        // The sorted column's header turns the sort around; the filters stay.
        Assert.Contains("id=\"sort-throughput\" href=\"runs?profile=gate&amp;target=CosmosSql&amp;status=Completed&amp;from=2026-11-01&amp;to=2026-11-30&amp;tag=2%20cores&amp;notes=warm&amp;sort=throughput&amp;dir=desc\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_ShowsTheElapsedTimeAsTheRunsSummaryAndTilesDo()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        await AddAsync(context, "minute", TargetKind.CosmosSql, RunStatus.Completed);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Contains(">" + BenchEngine.Metrics.ElapsedText.Format(TimeSpan.FromSeconds(60)) + "<", page.Markup, StringComparison.Ordinal);
        Assert.Contains(">60.0 s (1:00)<", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_FilterChanged_NavigatesToTheListWithTheNewQueryOnItsFirstPage()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?profile=gate&sort=p99&dir=asc&page=2");
        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        await page.Find("#filter-status").ChangeAsync("Failed");
        // The list reloads from its new address: the next change starts from it.
        page.WaitForAssertion(() => Assert.Equal(["Failed"], Selected(page.FindAll("#filter-status option"))));
        await page.Find("#filter-tag").ChangeAsync(" 2 cores ");

        Assert.Equal(["runs?profile=gate&status=Failed&sort=p99&dir=asc", "runs?profile=gate&status=Failed&tag=2%20cores&sort=p99&dir=asc"], context.NavigatedTo);
    }

    [Fact]
    public async Task List_DatesAtTheEndsOfTheCalendar_AreIgnoredWithAMessageNotACrash()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?from=0001-01-01&to=9999-12-31");
        await AddAsync(context, "One", TargetKind.Simulated, RunStatus.Completed);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var markup = page.Markup;
        Assert.Contains("“9999-12-31” for “to” is outside the years 1900–9998; it is ignored.", markup, StringComparison.Ordinal);
        Assert.Single(RunIds(markup));
    }

    [Fact]
    public async Task List_BadQueryValues_SayWhatIsWrongAndShowTheRest()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?status=Finished&from=11/02/2026&page=x");
        await AddAsync(context, "One", TargetKind.Simulated, RunStatus.Completed);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var markup = page.Markup;
        Assert.Contains("Unknown status “Finished” (one of Queued, Running, Completed, Cancelled, Failed, Interrupted, Stopped); it is ignored.", markup, StringComparison.Ordinal);
        Assert.Contains("“11/02/2026” is not a date for “from” (write it as yyyy-mm-dd); it is ignored.", markup, StringComparison.Ordinal);
        Assert.Contains("Page “x” is not a page number; showing the first page.", markup, StringComparison.Ordinal);
        Assert.Single(RunIds(markup));
    }

    [Fact]
    public async Task List_StatusStopped_ShowsOnlyRunsAnAutoStopRuleEnded_WithTheirOwnBadge()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?status=Stopped");
        var stopped = await AddAsync(context, "Ramp", TargetKind.Simulated, RunStatus.Stopped);
        await AddAsync(context, "Ramp", TargetKind.Simulated, RunStatus.Completed);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Equal(["Stopped"], Selected(page.FindAll("#filter-status option")));
        Assert.Equal([stopped], RunIds(page.Markup));
        Assert.Contains("class=\"badge status-stopped\" data-status=\"Stopped\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_ManyRuns_ShowsFiftyAPageWithALinkToTheNext()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        for (var i = 0; i < 51; i++)
        {
            await AddAsync(context, $"Run {i}", TargetKind.Simulated, RunStatus.Completed);
        }

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var markup = page.Markup;
        Assert.Equal(50, RunIds(markup).Length);
        Assert.Contains("Page 1 of 2, 51 runs<", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"next-page\" href=\"runs?page=2\"", markup, StringComparison.Ordinal);
        Assert.DoesNotContain("id=\"prev-page\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_Rows_ShowVerdictTagsAndImportedMarker()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        var id = await AddAsync(context, "Shared by a colleague", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,2 cores,", verdict: "Failed", importedFrom: "build-agent-7");

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var markup = page.Markup;
        Assert.Contains("data-verdict=\"Failed\">Failed<", markup, StringComparison.Ordinal);
        Assert.Contains("<a class=\"tag\" href=\"runs?tag=2%20cores\" data-tag=\"2 cores\">2 cores</a>", markup, StringComparison.Ordinal);
        Assert.Contains("data-imported=\"true\"", markup, StringComparison.Ordinal);
        Assert.Contains($"data-select-run=\"{id}\"", markup, StringComparison.Ordinal);
        Assert.Contains("href=\"runs/import\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_EnabledOnlyForTwoToFiveSelected_AndOpensTheComparisonInSelectionOrder()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        var ids = new List<long>();
        for (var i = 0; i < 6; i++)
        {
            ids.Add(await AddAsync(context, $"Run {i}", TargetKind.Simulated, RunStatus.Completed));
        }

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));
        Assert.True(IsDisabled(page.Find("#compare-selected")));
        Assert.True(IsDisabled(page.Find("#results-selected")));

        await page.Find($"#select-run-{ids[3]}").ChangeAsync(true);
        Assert.True(IsDisabled(page.Find("#compare-selected")));
        Assert.False(IsDisabled(page.Find("#results-selected")));

        await page.Find($"#select-run-{ids[1]}").ChangeAsync(true);
        Assert.False(IsDisabled(page.Find("#compare-selected")));
        await page.Find("#compare-selected").ClickAsync(new MouseEventArgs());
        Assert.Equal($"compare?runs={ids[3]},{ids[1]}", context.NavigatedTo[^1]);

        foreach (var id in new[] { ids[0], ids[2], ids[4], ids[5] })
        {
            await page.Find($"#select-run-{id}").ChangeAsync(true);
        }

        Assert.True(IsDisabled(page.Find("#compare-selected")));
        await page.Find("#compare-selected").ClickAsync(new MouseEventArgs());
        Assert.Single(context.NavigatedTo);

        await page.Find($"#select-run-{ids[5]}").ChangeAsync(false);
        Assert.False(IsDisabled(page.Find("#compare-selected")));
        await page.Find("#results-selected").ClickAsync(new MouseEventArgs());
        Assert.Equal($"results?runs={ids[3]},{ids[1]},{ids[0]},{ids[2]},{ids[4]}", context.NavigatedTo[^1]);
    }

    [Fact]
    public async Task List_NamesTargetsAsPeopleSayThem_InRowsAndInTheFilter()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        var cosmos = await AddAsync(context, "Direct", TargetKind.CosmosSql, RunStatus.Queued);
        var tables = await AddAsync(context, "Flights", TargetKind.TableStorage, RunStatus.Queued);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Equal("Cosmos DB (SQL API)", page.Find($"tr[data-run='{cosmos}'] td.target").TextContent.Trim());
        Assert.Equal("Table Storage", page.Find($"tr[data-run='{tables}'] td.target").TextContent.Trim());
        var options = page.FindAll("#filter-target option").Cast<IHtmlOptionElement>().ToDictionary(o => o.Value, o => o.Text.Trim());
        Assert.Equal("Cosmos DB (SQL API)", options["CosmosSql"]);
        Assert.Equal("Cosmos DB Table API", options["CosmosTable"]);
        Assert.Equal("Simulated Cosmos DB", options["Simulated"]);
        Assert.Equal("No-op", options["NoOp"]);
        Assert.DoesNotContain(">CosmosSql<", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_InterruptedRunWithASummaryOfItsSeconds_ShowsItsFiguresMarkedPartial()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        var seconds = Support.SeededRuns.Seconds(10, 2_000, 6);
        var summary = BenchEngine.Metrics.SummaryCalculator.Calculate(seconds, new BenchEngine.Metrics.LatencyDistribution());
        long id;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = new RunEntity
            {
                ProfileName = "Left running",
                PlanJson = "{}",
                Status = RunStatus.Interrupted,
                QueuedAt = Day,
                SummaryJson = System.Text.Json.JsonSerializer.Serialize(summary, RunPlan.JsonOptions),
                ElapsedSeconds = summary.Elapsed.TotalSeconds,
                AverageThroughput = summary.AverageThroughput,
                ThrottledFraction = summary.ThrottledFraction,
            };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            id = run.Id;
        }

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var row = page.Find($"tr[data-run='{id}']");
        Assert.Contains(summary.AverageThroughput.ToString("N0", System.Globalization.CultureInfo.CurrentCulture), row.TextContent, StringComparison.Ordinal);
        Assert.NotNull(row.QuerySelector(".badge.partial"));
    }

    [Fact]
    public async Task List_RunThatFailedBeforeItsFirstSecond_ShowsNoFiguresRatherThanZeros()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs");
        // As an earlier version stored a run refused when its target opened: a summary of zeros.
        var failed = await Support.SeededRuns.AddAsync(context.Databases, Support.SeededRuns.Plan(TargetKind.CosmosSql, "Refused"), [], RunStatus.Failed,
            failureReason: "The account key was refused (401).");

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var row = page.Find($"tr[data-run='{failed}']");
        Assert.All(row.QuerySelectorAll("td.num"), cell => Assert.Equal("—", cell.TextContent.Trim()));
        Assert.Null(row.QuerySelector(".badge.partial"));
        Assert.Equal(Support.SeededRuns.Start.ToLocalTime().ToString("yyyy-MM-dd HH:mm", System.Globalization.CultureInfo.InvariantCulture), row.QuerySelector("td.date")!.TextContent.Trim());
    }

    private static bool IsDisabled(IElement button) => Assert.IsAssignableFrom<IHtmlButtonElement>(button).IsDisabled;

    private static string[] Selected(IEnumerable<IElement> options) =>
        options.Cast<IHtmlOptionElement>().Where(o => o.IsSelected).Select(o => o.Value).ToArray();

    private static long[] RunIds(string markup) =>
        Regex.Matches(markup, "<tr data-run=\"(\\d+)\"", RegexOptions.None, TimeSpan.FromSeconds(1)).Select(m => long.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToArray();

    [Fact]
    public async Task List_SweepQuery_ShowsTheSweepsStepsEachLinkedToItsSweep()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?sweep=2");
        long sweepId;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            db.Sweeps.Add(new SweepEntity { Name = "other sweep", PlanJson = "{}", SweepJson = "{}", Status = RunStatus.Completed, QueuedAt = Day });
            var sweep = new SweepEntity { Name = "tuning", PlanJson = "{}", SweepJson = "{}", Status = RunStatus.Completed, QueuedAt = Day };
            db.Sweeps.Add(sweep);
            await db.SaveChangesAsync();
            sweepId = sweep.Id;
        }

        Assert.Equal(2, sweepId);
        await AddAsync(context, "alone", TargetKind.Simulated, RunStatus.Completed);
        var step = await AddAsync(context, "tuning · step 3: concurrency 100, Gateway", TargetKind.Simulated, RunStatus.Completed);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var run = await db.Runs.FindAsync(step);
            run!.SweepId = sweepId;
            run.SweepStep = 2;
            await db.SaveChangesAsync();
        }

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Equal([step], RunIds(page.Markup));
        Assert.Equal(["2"], Selected(page.FindAll("#filter-sweep option")));
        Assert.Equal(["any", "#2 tuning", "#1 other sweep"], page.FindAll("#filter-sweep option").Select(o => o.TextContent));
        Assert.Contains("Sweep", page.FindAll("thead th").Select(h => h.TextContent));
        var link = page.Find($"tr[data-run='{step}'] td.sweep a");
        Assert.Equal("sweeps/2", link.GetAttribute("href"));
        Assert.Equal("tuning", link.TextContent);
        Assert.Equal("Step 3 of sweep #2: tuning", link.GetAttribute("title"));
        Assert.Contains("id=\"sort-id\" href=\"runs?sweep=2&amp;sort=id&amp;dir=asc\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_NoRunOfThePageIsASweepStep_HasNoSweepColumn_AndKeepsLongNamesOnOneLineWithTheirWholeNameInTheTitle()
    {
        await using var context = new BenchWebComponentContext();
        const string name = "L4: Flights into the Cosmos DB Table API, 10 parallel batches of 100 in waves, against 4,000 RU/s";
        var run = await AddAsync(context, name, TargetKind.CosmosTable, RunStatus.Completed);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.DoesNotContain("Sweep", page.FindAll("thead th").Select(h => h.TextContent.Trim()));
        Assert.Empty(page.FindAll("td.sweep"));
        Assert.Equal(page.FindAll("thead th").Count, page.FindAll($"tr[data-run='{run}'] > td").Count);
        var link = page.Find($"tr[data-run='{run}'] td.name a.one-line");
        Assert.Equal(name, link.TextContent);
        Assert.Equal(name, link.GetAttribute("title"));
    }

    [Fact]
    public async Task List_RunWithMetadata_ShowsItsPairsUnderItsName_EachLinkedToTheRunsWithThatPair_NeverToAScript()
    {
        await using var context = new BenchWebComponentContext();
        var run = await AddAsync(context, "from a pipeline", TargetKind.Simulated, RunStatus.Completed);
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            var entity = await db.Runs.FindAsync(run);
            entity!.MetadataJson = BenchWeb.Provenance.RunMetadata.FromStored(
                """{"commit":"0123456789abcdef0123456789abcdef01234567","pipeline":"https://ci.example.com/runs/812","link":"javascript:alert(1)"}""").ToStored();
            await db.SaveChangesAsync();
        }

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        var pairs = page.Find($"tr[data-run='{run}'] td.name .run-metadata.compact");
        Assert.Null(pairs.GetAttribute("id"));
        Assert.Equal(["commit", "pipeline", "link"], pairs.QuerySelectorAll(".meta-pair").Select(p => p.GetAttribute("data-key")));
        var commit = pairs.QuerySelector(".meta-pair[data-key='commit'] a")!;
        Assert.Equal("runs?meta=commit%3D0123456789abcdef0123456789abcdef01234567", commit.GetAttribute("href"));
        Assert.Equal("0123456789abcdef0123456789abcdef01234567", commit.TextContent);
        Assert.Equal("https://ci.example.com/runs/812", pairs.QuerySelector(".meta-pair[data-key='pipeline'] a.meta-link")!.GetAttribute("href"));
        Assert.Equal("https://ci.example.com/runs/812", pairs.QuerySelector(".meta-pair[data-key='pipeline'] a.meta-link")!.GetAttribute("title"));
        Assert.Equal("runs?meta=link%3Djavascript%3Aalert(1)", pairs.QuerySelector(".meta-pair[data-key='link'] a")!.GetAttribute("href"));
        Assert.DoesNotContain(page.FindAll("a"), a => (a.GetAttribute("href") ?? "").StartsWith("javascript", StringComparison.OrdinalIgnoreCase));
    }

    private static async Task<long> AddAsync(BenchWebComponentContext context, string profile, TargetKind kind, RunStatus status,
        string? tags = null, string? notes = null, string? verdict = null, string? importedFrom = null)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var run = new RunEntity
        {
            ProfileName = profile,
            PlanJson = "{}",
            TargetKind = kind,
            Status = status,
            QueuedAt = Day,
            AverageThroughput = 1_000,
            ElapsedSeconds = 60,
            P99LatencyMs = 12,
            ThrottledFraction = 0.01,
            Tags = tags,
            Notes = notes,
            Verdict = verdict,
            ImportedAt = importedFrom is null ? null : Day,
            ImportedFrom = importedFrom,
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }
}
