using System.Text.RegularExpressions;
using BenchEngine.Targets;
using BenchWeb.Compare;
using BenchWeb.Components.Pages.Compare;
using BenchWeb.Tests.Support.Components;
using BenchWeb.Tests.Web.Compare;
using Bunit;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Web;
using ComparePage = BenchWeb.Components.Pages.Compare.Compare;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Components;

[UnitTest]
public sealed class CompareTests
{
    [Fact]
    public async Task Compare_RendersTableAndDiff_AndDrawsTwoSeriesAlignedAtZero()
    {
        await using var context = new BenchWebComponentContext();
        var (gateway, direct) = await SeedTwoRunsAsync(context);
        context.StartAt($"compare?runs={gateway},{direct}");
        var module = SetUpModule(context);

        var page = context.Render<ComparePage>();

        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["draw"]));
        var markup = Tight(page.Markup);
        Assert.Contains("id=\"comparison-table\"", markup, StringComparison.Ordinal);
        Assert.Contains("data-change=\"+12.3 %\"", markup, StringComparison.Ordinal);
        Assert.Contains("+12.3 % (+123.0)", markup, StringComparison.Ordinal);
        Assert.Contains("class=\"change better\"", markup, StringComparison.Ordinal);
        Assert.Contains("<tbody data-section=\"Load\"><tr class=\"section\"><th colspan=\"3\">Load</th></tr><tr data-path=\"load.concurrency\"><th>Concurrency</th><td>20</td><td>50</td></tr></tbody>", markup, StringComparison.Ordinal);
        Assert.Contains("<tbody data-section=\"Client settings\"><tr class=\"section\"><th colspan=\"3\">Client settings</th></tr><tr data-path=\"target.cosmos.connectionMode\"><th>Connection mode</th><td>Gateway</td><td>Direct</td></tr>", markup, StringComparison.Ordinal);
        Assert.Contains("<tr data-path=\"environment.processorCount\"><th>Processor count</th><td>2</td><td>8</td></tr>", markup, StringComparison.Ordinal);
        Assert.Contains($"value=\"http://localhost/compare?runs={gateway},{direct}\"", markup, StringComparison.Ordinal);
        Assert.Contains($"href=\"compare.csv?runs={gateway},{direct}\"", markup, StringComparison.Ordinal);
        Assert.Contains($"href=\"results?runs={gateway},{direct}\"", markup, StringComparison.Ordinal);

        // Two calls in all (every call is recorded by the context's interop too): the import, then draw on the module.
        Assert.Equal(2, context.JSInterop.Invocations.Count);
        Assert.Equal(ComparePage.ModulePath, Assert.Single(Assert.Single(context.JSInterop.Invocations["import"]).Arguments));
        var draw = Assert.Single(module.Interop.Invocations["draw"]).Arguments;
        Assert.IsType<ElementReference>(draw[0]);
        var series = Assert.IsAssignableFrom<IReadOnlyList<ComparisonSeries>>(draw[1]);
        Assert.Equal([gateway, direct], series.Select(s => s.RunId).ToArray());
        Assert.Equal([$"#{gateway} G1 gateway", $"#{direct} G4 direct"], series.Select(s => s.Label).ToArray());
        Assert.All(series, s => Assert.Equal(0, s.Time[0]));
        Assert.Equal(3, series[0].Time.Count);
        Assert.Equal(4, series[1].Time.Count);
        Assert.False(module.Disposed);
    }

    [Fact]
    public async Task ComparisonTable_ChangeThatRoundsToZero_IsColouredNeitherBetterNorWorse()
    {
        await using var context = new BenchWebComponentContext();
        var baseline = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("baseline"), null, RunComparisonTests.Summary(throughput: 1_000, p99: 50, throttled: 0));
        var same = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("same"), null, RunComparisonTests.Summary(throughput: 1_000.02, p99: 50.004, throttled: 0));
        RunComparison comparison;
        await using (var db = await context.Databases.CreateDbContextAsync())
        {
            comparison = await RunComparison.LoadAsync(db, [baseline, same], includeSeconds: false, CancellationToken.None);
        }

        var table = context.Render<ComparisonTable>(parameters => parameters.Add(p => p.Comparison, comparison));

        foreach (var figure in new[] { "latency-p99", "avg-throughput" })
        {
            var change = table.Find($"tr[data-row='{figure}'] .change");
            Assert.Equal("0.0 %", change.GetAttribute("data-change"));
            Assert.Equal(["change", "neutral"], change.ClassList.ToArray());
        }
    }

    [Fact]
    public async Task Compare_CopyLink_CopiesTheCurrentAddressThroughTheModule()
    {
        await using var context = new BenchWebComponentContext();
        var (gateway, direct) = await SeedTwoRunsAsync(context);
        context.StartAt($"compare?runs={gateway},{direct}");
        var module = SetUpModule(context);
        module.Interop.Setup<bool>("copyText", _ => true).SetResult(true);
        var page = context.Render<ComparePage>();
        page.WaitForAssertion(() => Assert.Single(module.Interop.Invocations["draw"]));

        await page.Find("#copy-link").ClickAsync(new MouseEventArgs());

        var copy = Assert.Single(module.Interop.Invocations["copyText"]);
        Assert.Equal($"http://localhost/compare?runs={gateway},{direct}", copy.Arguments[0]);
        Assert.Contains("Link copied.", page.Markup, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("compare", "Choose 2 to 5 runs: add them to the address, e.g. ?runs=12,15.")]
    [InlineData("compare?runs=1", "Choose 2 to 5 runs; 1 was given.")]
    [InlineData("compare?runs=1,2,3,4,5,6", "At most 5 runs at a time; 6 were given.")]
    [InlineData("compare?runs=1,x", "“x” is not a run number.")]
    [InlineData("compare?runs=1,404", "Run #404 does not exist.")]
    public async Task Compare_ShowsAMessageAndCallsNoScript_WhenTheQueryIsBad(string address, string message)
    {
        await using var context = new BenchWebComponentContext();
        await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("only"), null, null);
        context.StartAt(address);

        var page = context.Render<ComparePage>();

        Assert.Contains(message, page.WaitForElement("#compare-error").TextContent, StringComparison.Ordinal);
        Assert.DoesNotContain("comparison-table", page.Markup, StringComparison.Ordinal);
        Assert.Empty(context.JSInterop.Invocations);
    }

    [Fact]
    public async Task Compare_SaysSo_WhenTheRunsHaveTheSameSettings()
    {
        await using var context = new BenchWebComponentContext();
        var a = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("a"), CompareSeed.Environment(), null);
        var b = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("b"), CompareSeed.Environment(), null);
        context.StartAt($"compare?runs={a},{b}");
        SetUpModule(context);

        var page = context.Render<ComparePage>();

        page.WaitForElement("#comparison-table");
        Assert.Contains("id=\"config-same\"", page.Markup, StringComparison.Ordinal);
        Assert.DoesNotContain("id=\"config-diff\"", page.Markup, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Results_ShowsTheTableAndItsMarkdown_AndCopiesIt()
    {
        await using var context = new BenchWebComponentContext();
        var (gateway, direct) = await SeedTwoRunsAsync(context);
        context.StartAt($"results?runs={direct},{gateway}");
        var module = JSObjectSetup.Module(context.JSInterop, ComparePage.ModulePath);
        module.Interop.Setup<bool>("copyText", _ => true).SetResult(false);

        var page = context.Render<ResultsTable>();

        page.WaitForElement("#copy-markdown");
        var markup = Tight(page.Markup);
        var row = page.Find($"tr[data-run='{direct}']");
        Assert.Equal($"runs/{direct}", row.QuerySelector("td.run a")!.GetAttribute("href"));
        Assert.Equal($"#{direct} G4 direct", Words(row.QuerySelector("td.run")!.TextContent));
        Assert.Equal(["Cosmos DB (SQL API)", "Direct", "50 workers, closed loop"], row.QuerySelectorAll("td.settings strong, td.settings div").Select(e => e.TextContent).Take(3).ToArray());
        Assert.Equal(ResultsTableBuilder.FigureHeaders.Count, row.QuerySelectorAll("td.num").Length);
        Assert.Contains($"href=\"results.csv?runs={direct},{gateway}\"", markup, StringComparison.Ordinal);
        Assert.Contains($"href=\"compare?runs={direct},{gateway}\"", markup, StringComparison.Ordinal);
        Assert.Contains("| Run | Target |", markup, StringComparison.Ordinal);
        Assert.Empty(context.JSInterop.Invocations);

        await page.Find("#copy-markdown").ClickAsync(new MouseEventArgs());

        var copy = Assert.Single(module.Interop.Invocations["copyText"]);
        Assert.StartsWith("| Run | Target |", (string)copy.Arguments[0]!, StringComparison.Ordinal);
        Assert.Contains("the Markdown is selected below", page.Markup, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("results", "Choose 1 to 100 runs: add them to the address, e.g. ?runs=12,15.")]
    [InlineData("results?runs=9", "Run #9 does not exist.")]
    public async Task Results_ShowsAMessage_WhenTheQueryIsBad(string address, string message)
    {
        await using var context = new BenchWebComponentContext();
        context.StartAt(address);

        var page = context.Render<ResultsTable>();

        Assert.Contains(message, page.WaitForElement("#results-error").TextContent, StringComparison.Ordinal);
    }

    // Markup without the layout whitespace between elements.
    private static string Tight(string markup) => Regex.Replace(markup, @">\s+<", "><");

    private static string Words(string text) => Regex.Replace(text, @"\s+", " ").Trim();

    // The charts' module as the page uses it on first render and when it leaves; each test adds what else it needs.
    private static JSObjectSetup SetUpModule(BenchWebComponentContext context)
    {
        var module = JSObjectSetup.Module(context.JSInterop, ComparePage.ModulePath);
        module.Interop.SetupVoid("draw", _ => true).SetVoidResult();
        module.Interop.SetupVoid("release", _ => true).SetVoidResult();
        return module;
    }

    private static async Task<(long Gateway, long Direct)> SeedTwoRunsAsync(BenchWebComponentContext context)
    {
        var gateway = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("G1 gateway", CosmosConnectionMode.Gateway, 20), CompareSeed.Environment(processors: 2),
            RunComparisonTests.Summary(throughput: 1_000, p99: 50, throttled: 0), CompareSeed.Seconds(3, ok: 1_000), targetDescription: "Cosmos DB SQL · 10,000 RU/s");
        var direct = await CompareSeed.AddRunAsync(context.Databases, CompareSeed.CosmosPlan("G4 direct", CosmosConnectionMode.Direct, 50), CompareSeed.Environment(processors: 8),
            RunComparisonTests.Summary(throughput: 1_123, p99: 48, throttled: 0), CompareSeed.Seconds(4, ok: 1_123), targetDescription: "Cosmos DB SQL · 10,000 RU/s");
        return (gateway, direct);
    }
}
