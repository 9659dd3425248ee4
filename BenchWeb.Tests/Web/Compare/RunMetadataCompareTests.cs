using System.Globalization;
using BenchWeb.Compare;
using BenchWeb.Components.Pages.Compare;
using BenchWeb.Provenance;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using CsvHelper;
using Microsoft.EntityFrameworkCore;

namespace BenchWeb.Tests.Web.Compare;

/// <summary>Where the compared runs came from, beside their settings: the builds a regression lies between.</summary>
[UnitTest]
public sealed class RunMetadataCompareTests
{
    [Fact]
    public async Task Diff_ListsTheMetadataThatDiffers_InASectionOfItsOwnAfterTheSettings_WithADashWhereARunHasNone()
    {
        await using var context = new BenchWebComponentContext();
        var before = await AddAsync(context, "before", 20, ("ci", "github-actions"), ("commit", "1a2b"), ("branch", "main"));
        var after = await AddAsync(context, "after", 50, ("ci", "github-actions"), ("commit", "3c4d"), ("branch", "main"), ("ticket", "BW-24"));
        var byHand = await AddAsync(context, "by hand", 50);

        var comparison = await CompareAsync(context, before, after, byHand);

        Assert.Equal(
            ["Concurrency: 20 | 50 | 50", "ci: github-actions | github-actions | —", "commit: 1a2b | 3c4d | —", "branch: main | main | —", "ticket: — | BW-24 | —"],
            comparison.Differences.Rows.Select(r => r.ToString()));
        Assert.Equal(["Load", "Run metadata", "Run metadata", "Run metadata", "Run metadata"], comparison.Differences.Rows.Select(r => r.Group));
        Assert.Equal("metadata.commit", comparison.Differences.Rows[2].Path);
    }

    [Fact]
    public async Task Diff_MetadataThatIsTheSameForEveryRun_IsNotListed()
    {
        await using var context = new BenchWebComponentContext();
        var first = await AddAsync(context, "first", 20, ("ci", "gitlab"), ("commit", "1a2b"));
        var second = await AddAsync(context, "second", 20, ("ci", "gitlab"), ("commit", "3c4d"));

        var comparison = await CompareAsync(context, first, second);

        Assert.Equal(["commit: 1a2b | 3c4d"], comparison.Differences.Rows.Select(r => r.ToString()));
    }

    [Fact]
    public async Task DiffView_ShowsTheMetadataRowsAsText_UnderTheirSection()
    {
        await using var context = new BenchWebComponentContext();
        var first = await AddAsync(context, "first", 20, ("commit", "1a2b"), ("note", "<b>bold?</b>"));
        var second = await AddAsync(context, "second", 20, ("commit", "3c4d"));
        var comparison = await CompareAsync(context, first, second);

        var view = context.Render<ConfigurationDiffView>(parameters => parameters
            .Add(p => p.Diff, comparison.Differences)
            .Add(p => p.Runs, comparison.Runs));

        var section = view.Find("tbody[data-section='Run metadata']");
        Assert.Equal("Run metadata", section.QuerySelector("tr.section th")!.TextContent);
        var commit = section.QuerySelector("tr[data-path='metadata.commit']")!;
        Assert.Equal(["commit", "1a2b", "3c4d"], commit.Children.Select(c => c.TextContent));
        Assert.Equal(["note", "<b>bold?</b>", "—"], section.QuerySelector("tr[data-path='metadata.note']")!.Children.Select(c => c.TextContent));
        Assert.Empty(section.QuerySelectorAll("b"));
    }

    [Fact]
    public async Task ResultsCsv_HasTheMetadataOfEachRunInOneColumn()
    {
        await using var context = new BenchWebComponentContext();
        var first = await AddAsync(context, "first", 20, ("commit", "1a2b"), ("branch", "main"));
        var second = await AddAsync(context, "second", 20);
        var comparison = await CompareAsync(context, first, second);

        using var csv = new CsvReader(new StringReader(new ResultsTableBuilder(comparison.Runs).ToCsv()), CultureInfo.InvariantCulture);
        var rows = csv.GetRecords<dynamic>().Cast<IDictionary<string, object>>().ToList();

        Assert.Equal("Metadata", ResultsTableBuilder.CsvHeaders[^1]);
        Assert.Equal(["commit=1a2b; branch=main", ""], rows.Select(r => (string)r["Metadata"]));
    }

    private static async Task<long> AddAsync(BenchWebComponentContext context, string name, int concurrency, params (string Key, string Value)[] metadata)
    {
        var id = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan(name, concurrency: concurrency), CompareSeed.Environment(), null);
        var stored = new RunMetadata(metadata.Select(p => KeyValuePair.Create(p.Key, p.Value))).ToStored();
        await using var db = await context.Databases.CreateDbContextAsync();
        await db.Runs.Where(r => r.Id == id).ExecuteUpdateAsync(s => s.SetProperty(r => r.MetadataJson, stored));
        return id;
    }

    private static async Task<RunComparison> CompareAsync(BenchWebComponentContext context, params long[] ids)
    {
        await using var db = await context.Databases.CreateDbContextAsync();
        var comparison = await RunComparison.LoadAsync(db, ids, includeSeconds: false, CancellationToken.None);
        Assert.Empty(comparison.MissingIds);
        return comparison;
    }
}
