using System.Text.RegularExpressions;
using BenchEngine.Running;
using BenchEngine.Targets;
using BenchWeb.Components.Pages.Runs;
using BenchWeb.Data;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;

namespace BenchWeb.Tests.Web.Components;

/// <summary>Where a run came from, on the run page and as a filter of the runs list.</summary>
[UnitTest]
public sealed class RunMetadataPageTests
{
    private static readonly DateTimeOffset Day = new(2026, 11, 10, 12, 0, 0, TimeSpan.Zero);

    private const string Pipeline = "https://dev.azure.com/contoso/Bench%20Web/_build/results?buildId=4711";

    [Fact]
    public async Task RunPage_ShowsEveryPair_LinksTheHttpsPipelineRun_AndNothingElseBecomesALinkOrMarkup()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddAsync(context, "from a pipeline", Metadata(
            ("ci", "azure-pipelines"),
            ("commit", "fedcba98"),
            ("pipeline", Pipeline),
            ("script", "javascript:alert(1)"),
            ("html", "<img src=x onerror=alert(1)>"),
            ("empty", "")));
        var module = RunChartModule.SetUp(context).Module;

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(module.Interop.Invocations["start"]));

        var section = page.Find("#run-metadata");
        Assert.Equal(["ci", "commit", "pipeline", "script", "html", "empty"], section.QuerySelectorAll(".meta-pair").Select(p => p.GetAttribute("data-key")));
        var link = Assert.Single(section.QuerySelectorAll("a.meta-link"));
        Assert.Equal(Pipeline, link.GetAttribute("href"));
        Assert.Equal(Pipeline, link.TextContent);
        Assert.Equal("_blank", link.GetAttribute("target"));
        Assert.Equal("noopener noreferrer nofollow", link.GetAttribute("rel"));

        // Any other value links to the runs with the same pair, and is text, encoded.
        var script = section.QuerySelector("[data-key='script'] a")!;
        Assert.Equal("meta-value", script.ClassName);
        Assert.StartsWith("runs?meta=script%3Djavascript", script.GetAttribute("href"), StringComparison.Ordinal);
        Assert.Empty(section.QuerySelectorAll("img"));
        Assert.Equal("<img src=x onerror=alert(1)>", section.QuerySelector("[data-key='html'] a")!.TextContent);
        Assert.Contains("&lt;img src=x onerror=alert(1)&gt;", section.InnerHtml, StringComparison.Ordinal);
        Assert.Equal("(empty)", section.QuerySelector("[data-key='empty'] a")!.TextContent);
        Assert.Equal("runs?meta=commit%3Dfedcba98", section.QuerySelector("[data-key='commit'] a")!.GetAttribute("href"));
    }

    [Fact]
    public async Task RunPage_RunWithoutMetadata_ShowsNoMetadataSection()
    {
        await using var context = new BenchWebComponentContext();
        var runId = await AddAsync(context, "by hand", RunMetadata.Empty);
        var module = RunChartModule.SetUp(context).Module;

        var page = context.Render<RunLive>(parameters => parameters.Add(p => p.Id, runId));
        page.WaitForAssertion(() => Assert.NotEmpty(module.Interop.Invocations["start"]));

        Assert.Empty(page.FindAll("#run-metadata"));
    }

    [Fact]
    public async Task List_MetaFilter_ShowsOnlyTheRunsWithExactlyThatPair_AndKeepsItInTheLinks()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?meta=branch%3Drelease%2F1.2&sort=throughput");
        var release = await AddAsync(context, "release", Metadata(("commit", "1a2b"), ("branch", "release/1.2")));
        await AddAsync(context, "longer branch", Metadata(("branch", "release/1.2.1")));
        await AddAsync(context, "other key", Metadata(("note", "branch=release/1.2")));
        await AddAsync(context, "none", RunMetadata.Empty);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Equal([release], RunIds(page.Markup));
        Assert.Contains("id=\"filter-meta\" value=\"branch=release/1.2\"", page.Markup, StringComparison.Ordinal);
        Assert.NotNull(page.Find("#clear-filters"));
        Assert.Contains("href=\"runs?meta=branch%3Drelease%2F1.2&amp;sort=throughput&amp;dir=asc\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_MetaFilterChanged_NavigatesWithTheNewPair()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?tag=gateway");
        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        await page.Find("#filter-meta").ChangeAsync(" commit=1a2b ");

        Assert.Equal(["runs?tag=gateway&meta=commit%3D1a2b"], context.NavigatedTo);
    }

    [Fact]
    public async Task List_MetaFilterThatIsNotKeyEqualsValue_IsSaidAndIgnored()
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt("runs?meta=release");
        await AddAsync(context, "one", Metadata(("branch", "release")));
        await AddAsync(context, "two", RunMetadata.Empty);

        var page = context.Render<RunList>();
        page.WaitForAssertion(() => Assert.DoesNotContain("Loading…", page.Markup, StringComparison.Ordinal));

        Assert.Equal(2, RunIds(page.Markup).Length);
        Assert.Contains("“release” is not a metadata filter: Write key=value, e.g. commit=1a2b3c4. It is ignored.", page.Find("[data-problem]").TextContent, StringComparison.Ordinal);
    }

    private static RunMetadata Metadata(params (string Key, string Value)[] pairs) => new(pairs.Select(p => KeyValuePair.Create(p.Key, p.Value)));

    private static long[] RunIds(string markup) =>
        Regex.Matches(markup, "<tr data-run=\"(\\d+)\"", RegexOptions.None, TimeSpan.FromSeconds(1)).Select(m => long.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToArray();

    /// <summary>An ended run with a second of figures and this metadata, as a launch or an import stores it.</summary>
    private static async Task<long> AddAsync(BenchWebComponentContext context, string profile, RunMetadata metadata)
    {
        Assert.Empty(metadata.Validate());
        await using var db = await context.Databases.CreateDbContextAsync();
        var plan = new RunPlan { Name = profile, Stop = new StopOptions { DurationSeconds = 1 } };
        var run = new RunEntity
        {
            ProfileName = profile,
            PlanJson = plan.ToJson(),
            TargetKind = TargetKind.Simulated,
            Status = RunStatus.Completed,
            QueuedAt = Day,
            StartedAt = Day,
            EndedAt = Day.AddSeconds(1),
            AverageThroughput = 1_000,
            ElapsedSeconds = 1,
            MetadataJson = metadata.ToStored(),
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        db.RunSeconds.Add(new RunSecondEntity
        {
            RunId = run.Id,
            Index = 0,
            ElapsedSeconds = 1,
            DurationSeconds = 1,
            Ok = 1_000,
            OkRequests = 1_000,
            ClosedAt = Day.AddSeconds(1),
        });
        await db.SaveChangesAsync();
        return run.Id;
    }
}
