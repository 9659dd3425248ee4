using System.Globalization;
using BenchEngine.Targets;
using BenchWeb.Compare;
using BenchWeb.Components.Pages.Compare;
using BenchWeb.Tests.Support;
using BenchWeb.Tests.Support.Components;
using Bunit;
using CsvHelper;

namespace BenchWeb.Tests.Web.Compare;

/// <summary>Compare and results say, for each run, its worst second for the client and how many seconds the client was the limit.</summary>
[UnitTest]
public sealed class ClientHealthComparisonTests
{
    private const string HealthyWorst = "second 5: host CPU 45 %, this process 46 %, scheduling lag p99 1.5 ms";

    [Fact]
    public async Task Comparison_ShowsEachRunsWorstClientSecondAndClientLimitedSeconds()
    {
        await using var context = new BenchWebComponentContext();
        var (starved, healthy, older) = await SeedAsync(context);
        await using var db = await context.Databases.CreateDbContextAsync();

        var comparison = await RunComparison.LoadAsync(db, [starved, healthy, older], includeSeconds: false, CancellationToken.None);

        Assert.Equal(["3", "0", "—"], Row(comparison, "client-limited").Texts);
        Assert.Equal(["second 3: " + ClientHealthSeconds.StarvedReason, HealthyWorst, "not measured for this run"], Row(comparison, "worst-client-second").Texts);
    }

    [Fact]
    public async Task Results_CarryTheClientFiguresInTheirMarkdownAndCsvColumns()
    {
        await using var context = new BenchWebComponentContext();
        var (starved, healthy, older) = await SeedAsync(context);
        await using var db = await context.Databases.CreateDbContextAsync();
        var table = new ResultsTableBuilder((await RunComparison.LoadAsync(db, [starved, healthy, older], includeSeconds: false, CancellationToken.None)).Runs);

        var cells = table.Rows.Select(ResultsTableBuilder.DisplayCells).ToList();

        Assert.Equal(["Client-limited seconds", "Worst client second"], ResultsTableBuilder.Headers.TakeLast(2));
        Assert.Equal(["3", "second 3: " + ClientHealthSeconds.StarvedReason], cells[0].TakeLast(2));
        Assert.Equal(["0", HealthyWorst], cells[1].TakeLast(2));
        Assert.Equal(["—", "—"], cells[2].TakeLast(2));
        using var csv = new CsvReader(new StringReader(table.ToCsv()), CultureInfo.InvariantCulture);
        Assert.True(csv.Read());
        csv.ReadHeader();
        Assert.True(csv.Read());
        Assert.Equal(3, csv.GetField<int>("Client-limited seconds"));
        Assert.Equal("second 3: " + ClientHealthSeconds.StarvedReason, csv.GetField("Worst client second"));
    }

    [Fact]
    public async Task ResultsPage_SaysTheClientsFiguresInALineUnderEachRun_OutsideTheFiguresColumns()
    {
        await using var context = new BenchWebComponentContext();
        var (starved, healthy, older) = await SeedAsync(context);
        context.StartAt($"results?runs={starved},{healthy},{older}");

        var page = context.Render<ResultsTable>();

        page.WaitForElement("#results-table");
        Assert.Equal(
            "Client: limited in 3 seconds (3 left out of the per-second figures) · worst second 3: " + ClientHealthSeconds.StarvedReason,
            page.Find($"tr[data-client-of='{starved}'] td[colspan]").TextContent);
        Assert.Equal("Client: never the limit · worst " + HealthyWorst, page.Find($"tr[data-client-of='{healthy}'] td[colspan]").TextContent);
        Assert.Empty(page.FindAll($"tr[data-client-of='{older}']"));
        Assert.Equal(ResultsTableBuilder.FigureHeaders.Count, page.Find($"tr[data-run='{starved}']").QuerySelectorAll("td.num").Length);
        Assert.DoesNotContain("Worst client second", page.Find("#results-table thead").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void ClientLine_OfARunLimitedInEveryFullSecond_SaysNoneWasLeftOut()
    {
        // With no full second of the service's own, the per-second figures keep the client-limited ones: the line says so.
        var line = ResultsTableBuilder.ClientLine(new ResultsRow { Profile = "p", Target = "t", ClientLimitedSeconds = 1, PerSecondLeftOut = 0 });

        Assert.Equal("Client: limited in 1 second (none left out of the per-second figures: no full second was the service's)", line);
    }

    // A run starved in seconds 3–5, a healthy one, and one measured before client health was kept.
    private static async Task<(long Starved, long Healthy, long Older)> SeedAsync(BenchWebComponentContext context)
    {
        var starved = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Starved"),
            ClientHealthSeconds.Of(SeededRuns.Seconds(12, 1_000, 6), starved: [3, 4, 5]));
        var healthy = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Healthy"), ClientHealthSeconds.Of(SeededRuns.Seconds(6, 1_000, 6)));
        var older = await SeededRuns.AddAsync(context.Databases, SeededRuns.Plan(TargetKind.Simulated, "Older"), SeededRuns.Seconds(6, 1_000, 6));
        return (starved, healthy, older);
    }

    private static ComparisonRow Row(RunComparison comparison, string key) => comparison.Rows.Single(r => r.Key == key);
}
