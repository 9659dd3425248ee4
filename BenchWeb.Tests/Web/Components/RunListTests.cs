using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Tests.Support.Components;

namespace BenchWeb.Tests.Web.Components;

public sealed class RunListTests
{
    private static readonly DateTimeOffset Day = new(2026, 11, 10, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task List_QueryString_FillsTheFiltersAndFiltersTheRows()
    {
        await using var context = new ComponentTestContext("runs?profile=gate&target=CosmosSql&status=Completed&from=2026-11-01&to=2026-11-30&tag=2%20cores&notes=warm&sort=throughput&dir=asc");
        var gateway = await AddAsync(context, "Gateway", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,2 cores,", notes: "warm-up was slow");
        await AddAsync(context, "Gateway", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,", notes: "warm-up was slow");
        await AddAsync(context, "Direct", TargetKind.CosmosSql, RunStatus.Completed, tags: ",2 cores,", notes: "warm");

        var page = await context.RenderAsync<RunList>();

        var markup = page.Markup;
        Assert.Contains("id=\"filter-profile\" value=\"gate\"", markup, StringComparison.Ordinal);
        Assert.Contains("<option value=\"CosmosSql\" selected>", markup, StringComparison.Ordinal);
        Assert.Contains("<option value=\"Completed\" selected>", markup, StringComparison.Ordinal);
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
    public async Task List_FilterChanged_NavigatesToTheListWithTheNewQueryOnItsFirstPage()
    {
        await using var context = new ComponentTestContext("runs?profile=gate&sort=p99&dir=asc&page=2");
        var page = await context.RenderAsync<RunList>();

        await page.ChangeAsync("filter-status", "Failed");
        await page.ChangeAsync("filter-tag", " 2 cores ");

        Assert.Equal("runs?profile=gate&status=Failed&sort=p99&dir=asc", context.Navigation.History[0]);
        // The page did not reload in the test, so the second change starts from the same query.
        Assert.Equal("runs?profile=gate&tag=2%20cores&sort=p99&dir=asc", context.Navigation.History[1]);
    }

    [Fact]
    public async Task List_DatesAtTheEndsOfTheCalendar_AreIgnoredWithAMessageNotACrash()
    {
        await using var context = new ComponentTestContext("runs?from=0001-01-01&to=9999-12-31");
        await AddAsync(context, "One", TargetKind.Simulated, RunStatus.Completed);

        var page = await context.RenderAsync<RunList>();

        var markup = page.Markup;
        Assert.Contains("“9999-12-31” for “to” is outside the years 1900–9998; it is ignored.", markup, StringComparison.Ordinal);
        Assert.Single(RunIds(markup));
    }

    [Fact]
    public async Task List_BadQueryValues_SayWhatIsWrongAndShowTheRest()
    {
        await using var context = new ComponentTestContext("runs?status=Finished&from=11/02/2026&page=x");
        await AddAsync(context, "One", TargetKind.Simulated, RunStatus.Completed);

        var page = await context.RenderAsync<RunList>();

        var markup = page.Markup;
        Assert.Contains("Unknown status “Finished” (one of Queued, Running, Completed, Cancelled, Failed, Interrupted); it is ignored.", markup, StringComparison.Ordinal);
        Assert.Contains("“11/02/2026” is not a date for “from” (write it as yyyy-mm-dd); it is ignored.", markup, StringComparison.Ordinal);
        Assert.Contains("Page “x” is not a page number; showing the first page.", markup, StringComparison.Ordinal);
        Assert.Single(RunIds(markup));
    }

    [Fact]
    public async Task List_ManyRuns_ShowsFiftyAPageWithALinkToTheNext()
    {
        await using var context = new ComponentTestContext("runs");
        for (var i = 0; i < 51; i++)
        {
            await AddAsync(context, $"Run {i}", TargetKind.Simulated, RunStatus.Completed);
        }

        var page = await context.RenderAsync<RunList>();

        var markup = page.Markup;
        Assert.Equal(50, RunIds(markup).Length);
        Assert.Contains("Page 1 of 2, 51 runs<", markup, StringComparison.Ordinal);
        Assert.Contains("id=\"next-page\" href=\"runs?page=2\"", markup, StringComparison.Ordinal);
        Assert.DoesNotContain("id=\"prev-page\"", markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_Rows_ShowVerdictTagsAndImportedMarker()
    {
        await using var context = new ComponentTestContext("runs");
        var id = await AddAsync(context, "Shared by a colleague", TargetKind.CosmosSql, RunStatus.Completed, tags: ",gateway,2 cores,", verdict: "Failed", importedFrom: "build-agent-7");

        var page = await context.RenderAsync<RunList>();

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
        await using var context = new ComponentTestContext("runs");
        var ids = new List<long>();
        for (var i = 0; i < 6; i++)
        {
            ids.Add(await AddAsync(context, $"Run {i}", TargetKind.Simulated, RunStatus.Completed));
        }

        var page = await context.RenderAsync<RunList>();
        Assert.True(IsDisabled(page.Markup, "compare-selected"));
        Assert.True(IsDisabled(page.Markup, "results-selected"));

        await page.ChangeAsync($"select-run-{ids[3]}", "true");
        Assert.True(IsDisabled(page.Markup, "compare-selected"));
        Assert.False(IsDisabled(page.Markup, "results-selected"));

        await page.ChangeAsync($"select-run-{ids[1]}", "true");
        Assert.False(IsDisabled(page.Markup, "compare-selected"));
        await page.ClickAsync("compare-selected");
        Assert.Equal($"compare?runs={ids[3]},{ids[1]}", context.Navigation.History.Last());

        foreach (var id in new[] { ids[0], ids[2], ids[4], ids[5] })
        {
            await page.ChangeAsync($"select-run-{id}", "true");
        }

        Assert.True(IsDisabled(page.Markup, "compare-selected"));
        await page.ClickAsync("compare-selected");
        Assert.Single(context.Navigation.History);

        await page.ChangeAsync($"select-run-{ids[5]}", "false");
        Assert.False(IsDisabled(page.Markup, "compare-selected"));
        await page.ClickAsync("results-selected");
        Assert.Equal($"results?runs={ids[3]},{ids[1]},{ids[0]},{ids[2]},{ids[4]}", context.Navigation.History.Last());
    }

    private static bool IsDisabled(string markup, string id)
    {
        var button = Regex.Match(markup, $"<button id=\"{id}\"[^>]*>", RegexOptions.None, TimeSpan.FromSeconds(1));
        Assert.True(button.Success, $"No button {id}.");
        return Regex.IsMatch(button.Value, @"\sdisabled[\s>]", RegexOptions.None, TimeSpan.FromSeconds(1));
    }

    private static long[] RunIds(string markup) =>
        Regex.Matches(markup, "<tr data-run=\"(\\d+)\"", RegexOptions.None, TimeSpan.FromSeconds(1)).Select(m => long.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToArray();

    private static async Task<long> AddAsync(ComponentTestContext context, string profile, TargetKind kind, RunStatus status,
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
